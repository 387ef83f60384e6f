"""assert-to-raise helpers: generated messages survive any source text, and the `if` test
is true exactly when the assert would have failed (NaN included)."""

from __future__ import annotations

import ast
import itertools
import math
from pathlib import Path

import libcst as cst
import pytest
from hypothesis import given
from hypothesis import strategies as st

from codemods.assertions.assert_to_raise import INVARIANT_MESSAGE
from codemods.assertions.assert_to_raise_edit import failure_test, string_literal
from torchfix.model.test_code import is_copied_code

_NO_CODE = cst.Module(body=[])


@given(st.text())
def test_string_literal_round_trips(text):
    literal = string_literal(text)
    assert ast.literal_eval(literal) == text
    assert not literal.startswith(("f", "F"))  # braces stay literal


@pytest.mark.parametrize(
    "text, literal",
    [
        ('expected x in ("a", "b")', "'expected x in (\"a\", \"b\")'"),
        ("expected x != 'it'", '"expected x != \'it\'"'),
        ("expected sep != '\\\\'", '"expected sep != \'\\\\\\\\\'"'),
        ("expected fmt == '{x}'", '"expected fmt == \'{x}\'"'),
    ],
)
def test_string_literal_prefers_readable_quotes(text, literal):
    assert string_literal(text) == literal


CONDITIONS = [
    "a == b", "a != b", "a is b", "a is not b", "a in c", "a not in c", "not a", "not (a < b)",
    "a < b", "a <= b", "a > b", "a >= b", "a < b < c", "a == b == c", "a and b", "a or b",
    "not (a and b)", "(a == b)", "(not a)", "isinstance(a, float)", "not isinstance(a, int)",
    "(a := b) > 0", "a < b or a is None", "-a", "a if b else c",
]
VALUES = [0, 1, 2.5, -1, math.nan, None]


def _evaluate(expression: str, names: dict[str, object]) -> bool | None:
    try:
        return bool(eval(expression, {}, dict(names)))  # the fixed expressions above
    except TypeError:
        return None  # e.g. None < 1: both forms must raise, checked below


@pytest.mark.parametrize("condition", CONDITIONS)
def test_failure_test_is_the_exact_negation(condition):
    test = _NO_CODE.code_for_node(failure_test(cst.parse_expression(condition)))
    for a, b, c in itertools.product(VALUES, VALUES, [(0, 1), [None]]):
        names = {"a": a, "b": b, "c": c}
        holds = _evaluate(condition, names)
        fails = _evaluate(test, names)
        if holds is None or fails is None:
            assert holds is None and fails is None, (condition, test, names)
        else:
            assert fails == (not holds), (condition, test, names)


@pytest.mark.parametrize(
    "condition, test",
    [
        ("a == b", "a != b"),
        ("a is not None", "a is None"),
        ("a not in c", "a in c"),
        ("not a", "a"),
        ("not (a or b)", "a or b"),
        ("a < b", "not (a < b)"),
        ("0 < a < 1", "not (0 < a < 1)"),
        ("a and b", "not (a and b)"),
        ("(x := f()) > 0", "not ((x := f()) > 0)"),
        ("(a.ok)", "not a.ok"),
        ("x.all()", "not x.all()"),
    ],
)
def test_failure_test_reads_naturally(condition, test):
    assert _NO_CODE.code_for_node(failure_test(cst.parse_expression(condition))) == test


# -- decisions: what is an input check, and what relies on the AssertionError --------------


def _decisions(tmp_path, monkeypatch, files: dict[str, str],
               invariants: str = "unsafe") -> dict[int, tuple[str, str]]:
    """line → (safety, message) of assert-to-raise's findings in `pkg/module.py`; internal
    invariants offered as unsafe fixes (`invariants = "unsafe"`), to see their reasons."""
    import textwrap

    from torchfix.api import check_paths

    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    # Not named pyproject.toml: that would make the project a distribution without tests.
    config = tmp_path / "torchfix.toml"
    config.write_text(f'[tool.torchfix.assert-to-raise]\ninvariants = "{invariants}"\n')
    monkeypatch.chdir(tmp_path)
    result = check_paths(["."], select=["assert-to-raise"], config=config)
    assert not result.errors
    return {f.line: (f.safety, f.message) for f in result.findings
            if f.path.as_posix().endswith("pkg/module.py")}


def _half_converted(finding: tuple[str, str]) -> bool:
    """An input check made unsafe only because other asserts of its function stay."""
    return finding[0] == "unsafe" and "half converted" in finding[1]


def test_a_function_is_converted_whole_or_not_at_all(tmp_path, monkeypatch):
    # megablocks' load_balancing_loss (round 27) converted three checks and kept a
    # fourth; here the third reads tensor values (an unsafe fix): converting two of three
    # by default leaves the function half converted, so none is a safe fix
    found = _decisions(tmp_path, monkeypatch, {"pkg/module.py": """
        def balance(tokens, scores, experts):
            assert scores.dim() == 2, "scores must be 2-D"
            assert tokens.dim() == 1, "tokens must be 1-D"
            count = len(experts)
            assert (scores.sum(1) == count).all(), "scores must sum to the expert count"


        def scale(x, factor):
            assert factor > 0, "factor must be positive"
            assert x.dim() == 2, "x must be 2-D"
            return x * factor
        """}, invariants="ignore")
    assert _half_converted(found[3]) and _half_converted(found[4])
    assert "2 other" not in found[3][1] and "1 other assert" in found[3][1]
    assert found[6][0] == "unsafe" and "tensor values" in found[6][1]
    assert found[10][0] == "safe" and found[11][0] == "safe"  # all of scale's checks


@pytest.mark.parametrize("guard", ["config is None", "config == None", "not config"])
def test_a_parameter_given_its_default_is_still_an_input(tmp_path, monkeypatch, guard):
    found = _decisions(tmp_path, monkeypatch, {"pkg/module.py": f"""
        def shaped(rewards, config=None):
            if {guard}:
                config: Config = Config()
            assert config.gamma == 0.99, "gamma must match"
            return rewards
        """})
    assert found == {5: ("safe", "assert is stripped by python -O: raise ValueError instead")}


@pytest.mark.parametrize("body", [
    # reassigned outside the guard, or the guard does not test the parameter
    ["if config is None:", "    config = Config()", "config = config.merged()"],
    ["if other is None:", "    config = Config()"],
    # the default reads a local variable the function computed
    ["base = Config()", "if config is None:", "    config = base"],
    # the parameter's value is replaced, not defaulted
    ["if config is not None:", "    config = Config()"],
])
def test_other_reassignments_make_it_computed(tmp_path, monkeypatch, body):
    lines = ["def shaped(rewards, config=None, other=None):", *(f"    {line}" for line in body),
             '    assert config.gamma == 0.99, "gamma must match"', "    return rewards", ""]
    found = _decisions(tmp_path, monkeypatch, {"pkg/module.py": "\n".join(lines)})
    (safety, message), = found.values()
    assert safety == "unsafe" and "computed in the function" in message


MODULE = """
    GAMMA_MESSAGE = "gamma out of range"


    class Config:
        def __post_init__(self):
            assert 0 < self.gamma <= 1, GAMMA_MESSAGE
            assert self.lam >= 0


    def schedule(steps, name):
        assert steps > 0
        assert name, name + " is empty"
    """


def test_a_test_expecting_the_assertion_error_keeps_it(tmp_path, monkeypatch):
    found = _decisions(tmp_path, monkeypatch, {
        "pkg/__init__.py": "",
        "pkg/module.py": MODULE,
        "tests/test_module.py": """
            import pytest
            from pkg.module import Config, schedule

            def test_gamma():
                with pytest.raises(AssertionError, match="out of range"):
                    Config(gamma=2.0)

            def test_empty():
                with pytest.raises(AssertionError, match="empty"):
                    schedule(1, "")
            """,
    })
    # the constructor's message is a module constant that the pattern matches; the
    # message-less assert's error has an empty message, which it does not
    assert found[7] == ("manual", "tests/test_module.py:6 expects AssertionError from Config(): "
                        "a raise would fail that test; change the check and the test together")
    # an input check, made unsafe only because the reported one beside it stays an assert
    assert _half_converted(found[8])
    # no message: str(error) == "", which "empty" does not match; a built message may match
    assert _half_converted(found[12])
    assert found[13][0] == "manual" and "tests/test_module.py:10" in found[13][1]


def test_expectations_without_a_pattern_cover_every_assert_of_the_function(
        tmp_path, monkeypatch):
    found = _decisions(tmp_path, monkeypatch, {
        "pkg/module.py": MODULE,
        "tests/test_module.py": """
            import unittest
            from pkg import module

            class ScheduleTest(unittest.TestCase):
                def test_rejects(self):
                    with self.assertRaises(AssertionError):
                        module.schedule(0, "x")
            """,
    })
    assert {line for line, (safety, _) in found.items() if safety == "manual"} == {12, 13}
    assert found[7][0] == "safe"


def test_what_the_defaulting_if_itself_checks_is_the_default(tmp_path, monkeypatch):
    found = _decisions(tmp_path, monkeypatch, {"pkg/module.py": """
        def aggregate(name=None, model=None):
            if name is None:
                name = new_name()
                assert name not in AGGREGATORS, "name clash"
            else:
                assert name != "default", "reserved name"
            if model is None:
                model = DEFAULT_MODEL
            assert model is not None
            assert model, "a model is needed"
        """})
    assert found[5][0] == "unsafe" and "computed in the function" in found[5][1]
    # the `else` holds what the caller passed: an input check, unsafe only because the
    # checks beside it stay asserts
    assert _half_converted(found[7])
    # written for the type checker: the default it was just given is not None
    assert found[10][0] == "unsafe" and "narrow its type" in found[10][1]
    assert _half_converted(found[11])


def test_internal_invariants_are_left_alone_by_default(tmp_path, monkeypatch):
    found = _decisions(tmp_path, monkeypatch, {"pkg/module.py": """
        import torch


        def scale(x, factor, buffer=None):
            assert factor > 0, "factor must be positive"
            y = x * factor
            assert y.shape == x.shape
            assert buffer is not None
            assert torch.isfinite(x).all(), "NaN input"
            if factor > 10:
                assert False, "unreachable"
            return y


        def _private(x):
            assert x > 0
            assert False


        def outer(x):
            def inner(y):
                assert y > 0
            return inner


        assert torch.__version__
        """}, invariants="ignore")
    assert {line: safety for line, (safety, _) in found.items()} == {
        6: "unsafe", 10: "unsafe", 12: "unsafe", 18: "unsafe"}
    assert _half_converted(found[6])  # an input check beside asserts that stay
    assert "tensor values" in found[10][1] and "always fails" in found[18][1]


def test_uncertain_input_checks_stay_unsafe_where_invariants_are_left_alone(
        tmp_path, monkeypatch):
    found = _decisions(tmp_path, monkeypatch, {"pkg/module.py": """
        def guarded(step):
            try:
                return step()
            except AssertionError:
                return None


        def scale(factor):
            assert factor > 0, "factor must be positive"
            total = factor * 2
            assert total > 0


        class _Ring:
            def advance(self, steps):
                assert steps >= 0
        """}, invariants="ignore")
    (safety, message), = found.values()
    assert safety == "unsafe" and "catches AssertionError" in message and 10 in found


def test_the_invariants_option_takes_ignore_or_unsafe(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="invariants must be one of"):
        _decisions(tmp_path, monkeypatch, {"pkg/module.py": "assert True\n"},
                   invariants="rewrite")


def test_builtins_stay_builtins_under_star_imports(tmp_path, monkeypatch):
    found = _decisions(tmp_path, monkeypatch, {"pkg/module.py": """
        from .layers import *

        def create(norm_layer):
            assert isinstance(norm_layer, (type, str)), "norm_layer must be a class or name"
        """})
    assert found[5] == ("safe", "assert is stripped by python -O: raise TypeError instead")


@pytest.mark.parametrize(
    ("message", "invariant"),
    [
        ("dataloader type checked on match()", True),
        ("The dataloader type is checked on match()", True),
        ("shape was checked in __init__", True),
        ("should have been checked by the caller", True),
        ("lengths already validated above", True),
        ("the mask has already been checked", True),
        ("non-empty batches are guaranteed by the sampler", True),
        ("is guaranteed by construction", True),
        ("BUG: ran past the last step", True),
        ("the path must be checked", False),
        ("value must be checked in advance", False),
        ("needs to be checked by the user", False),
        ("convergence is not guaranteed by this schedule", False),
        ("checkpoint must be a checked-in file", False),
        ("lr must be positive", False),
        ("a bug report", False),
        ("guaranteed delivery requires a queue", False),
    ],
)
def test_invariant_messages(message, invariant):
    assert bool(INVARIANT_MESSAGE.search(message)) is invariant


def _documented(raises: bool, body: str = 'raise ValueError("bad")') -> str:
    section = "\n    Raises:\n        ValueError: if bad.\n" if raises else ""
    return (f'    """Do.\n\n    Args:\n        x: the input.\n{section}    """\n'
            f"    if not x:\n        {body}\n")


@pytest.mark.parametrize(("documented", "undocumented", "follows"), [
    (5, 0, True),  # the fewest that make a convention
    (4, 0, False),  # too few to tell
    (6, 2, True),  # three in four
    (5, 2, False),  # short of three in four
    (0, 0, False),
])
def test_the_raises_convention_needs_most_functions_and_enough_of_them(
        tmp_path, documented, undocumented, follows):
    from codemods.assertions.assert_to_raise import RAISES_DOCUMENTED
    from torchfix.model.project import Project

    functions = [(index, True) for index in range(documented)] + [
        (documented + index, False) for index in range(undocumented)]
    text = "".join(f"def f{index}(x):\n{_documented(raises)}\n\n" for index, raises in functions)
    # Neither a test file, nor a NotImplementedError stub, nor a bare re-raise counts.
    text += f"def stub(x):\n{_documented(False, 'raise NotImplementedError')}\n\n"
    text += f"def again(x):\n{_documented(False, 'raise')}\n"
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "ops.py").write_text(text)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_ops.py").write_text(
        "".join(f"def t{index}(x):\n{_documented(False)}\n\n" for index in range(20)))
    found = Project(tmp_path).derived(RAISES_DOCUMENTED, str(tmp_path))
    assert bool(found) is follows


def test_the_raises_convention_is_confirmed_on_warm_runs(tmp_path, cli, monkeypatch):
    # The convention is read from other modules; a warm run confirms it from the scan memo
    # without deciding the file again, and a module that stops documenting its raises
    # changes it: the docstring that cannot take the entry no longer makes the fix unsafe.
    from torchfix.engine import process as engine

    decided: list[Path] = []
    original = engine.process_source

    def counting(data, path, settings, *rest, **options):
        decided.append(path)
        return original(data, path, settings, *rest, **options)

    monkeypatch.setattr(engine, "process_source", counting)
    (tmp_path / "pkg").mkdir()
    documented = "".join(f"def f{index}(x):\n{_documented(True)}\n\n" for index in range(5))
    (tmp_path / "pkg" / "ops.py").write_text(documented)
    (tmp_path / "pkg" / "check.py").write_text(
        'def clip(x):\n    """Clip.\n\n    Args:\n        x: the input."""\n'
        "    assert x > 0\n    return x\n")
    cold = cli("check", "--show-all", ".")
    assert "the project's docstrings document what its functions raise" in cold.stdout
    memo = tmp_path / ".torchfix_cache" / "scan-assert-to-raise-raises-documented.json"
    assert memo.is_file()
    count = len(decided)
    warm = cli("check", "--show-all", ".")
    assert (warm.stdout, len(decided)) == (cold.stdout, count)
    (tmp_path / "pkg" / "ops.py").write_text(documented.replace("Raises:", "Notes:"))
    changed = cli("check", "--show-all", ".")
    assert "pkg/check.py" in changed.stdout and "docstrings document" not in changed.stdout


def test_a_component_is_confirmed_on_warm_runs_and_follows_its_callers(tmp_path, cli):
    # Whether a class is an inner component is read from the package's other modules: a
    # warm run prints the same, and exporting the class from the package's __init__ makes
    # its check an input check again.
    package = tmp_path / "kit"
    package.mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_kit.py").write_text("def test_kit():\n    pass\n")
    (package / "__init__.py").write_text("from kit.model import Model\n")
    (package / "block.py").write_text(
        "class Block:\n    def forward(self, x, context=None):\n"
        "        assert context is None or self.cross, 'context needs cross'\n"
        "        return x\n")
    (package / "model.py").write_text(
        "from kit.block import Block\n\n\nclass Model:\n    def __init__(self):\n"
        "        self.block = Block()\n")
    cold = cli("check", "--show-all", ".")
    assert "kit/block.py" not in cold.stdout
    assert (tmp_path / ".torchfix_cache" / "scan-assert-to-raise-instantiations.json").is_file()
    assert cli("check", "--show-all", ".").stdout == cold.stdout
    (package / "__init__.py").write_text(
        "from kit.block import Block\nfrom kit.model import Model\n")
    assert "kit/block.py:3:9" in cli("check", "--show-all", ".").stdout


@pytest.mark.parametrize(("head", "copied"), [
    ("# This file contains code copied from the DeepSeek-V3.2-Exp project.\n", True),
    ("# Differences from https://huggingface.co/moonshotai/Kimi-K3/tree/main:\n", True),
    ('"""Vendored from pip._vendor.packaging."""\n', True),
    ("# Copied from transformers.models.llama.modeling_llama\n", True),
    ("# Adapted from https://github.com/openai/CLIP\n", False),  # the project's own now
    ("# Based on the PPO paper.\n", False),
])
def test_code_copied_from_another_project_is_known_by_its_head(head, copied):
    assert is_copied_code(head + "import torch\n") is copied
    # Only the head counts: a class annotated deep in a module is not the module's origin.
    assert not is_copied_code("import torch\n" * 50 + head)


def test_what_the_package_does_not_export_is_left_alone(tmp_path, monkeypatch):
    # megablocks (round 27): `act_fn` and `gelu`, not exported by its __init__.py, are
    # called by its own layers with what they built
    found = _decisions(tmp_path, monkeypatch, {
        "pkg/__init__.py": "from pkg.module import Layer, scale\n",
        "pkg/module.py": """
            class Layer:
                def __init__(self, size):
                    assert size > 0, "size must be positive"


            def scale(x, factor):
                assert factor > 0, "factor must be positive"


            def act_fn(x, function):
                assert callable(function), "function must be callable"


            class Router:
                def __init__(self, experts):
                    assert experts > 0, "experts must be positive"
            """,
    }, invariants="ignore")
    assert found[4][0] == "safe" and found[8][0] == "safe"
    assert 12 not in found and 17 not in found
    unsafe = _decisions(tmp_path, monkeypatch, {}, invariants="unsafe")
    assert "act_fn is not exported by its package's __init__.py" in unsafe[12][1]


def test_a_distribution_whose_tests_never_name_the_function_is_unsafe(tmp_path, monkeypatch):
    # onnx2pytorch's sdist (round 27) ships one import test; the repository's tests
    # expect AssertionError from Split(...)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "pkg"\n')
    found = _decisions(tmp_path, monkeypatch, {
        "pkg/__init__.py": "from pkg.module import Split, scale\n",
        "pkg/module.py": """
            class Split:
                def __init__(self, sections):
                    assert sections > 0, "sections must be positive"


            def scale(x, factor):
                assert factor > 0, "factor must be positive"
            """,
        "tests/test_module.py": """
            from pkg.module import scale

            def test_scale():
                assert scale(1, 2) is None
            """,
    })
    assert found[4][0] == "unsafe" and "no test of the project names Split()" in found[4][1]
    assert found[8][0] == "safe"


def test_what_only_a_private_package_gathers_is_not_exported(tmp_path, monkeypatch):
    # geomloss' `_backends` (round 28): its __init__.py gathers the KeOps shims and
    # defines `cast()` for the library's own use; the public __init__.py exports neither
    found = _decisions(tmp_path, monkeypatch, {
        "pkg/__init__.py": "from pkg.module import Loss\n",
        "pkg/module.py": """
            class Loss:
                def __init__(self, p):
                    assert p > 0, "p must be positive"
            """,
        "pkg/_backends/__init__.py": "from pkg._backends.keops import total\n",
        "pkg/_backends/keops.py": """
            def total(x, keepdims=False):
                assert not keepdims, "keepdims is not supported"
            """,
    }, invariants="ignore")
    assert found[4][0] == "safe"
    keops = _decisions_in(tmp_path, "pkg/_backends/keops.py")
    assert keops == {}


def _decisions_in(root, name: str) -> dict[int, tuple[str, str]]:
    from torchfix.api import check_paths

    result = check_paths(["."], select=["assert-to-raise"], config=root / "torchfix.toml")
    return {f.line: (f.safety, f.message) for f in result.findings
            if f.path.as_posix().endswith(name)}
