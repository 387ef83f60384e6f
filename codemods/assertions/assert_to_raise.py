"""assert-to-raise: input checks written as `assert` become `if ...: raise ValueError(...)`.

Every assert is decided here, on CPython's tree and the shared semantic and project
models; `assert_to_raise_edit` (libcst) only lays out the `if` and the `raise`.
"""

from __future__ import annotations

import ast
import builtins
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path

from torchfix.model.ast_index import nodes_of
from torchfix.model.complexity import complexity
from torchfix.model.expected_errors import (
    Expectation,
    MessageTemplate,
    Reached,
    literal_pattern,
    template_may_contain,
)
from torchfix.model.project import Project, register_derived_fact
from torchfix.model.scan_memo import every_answer, parse_if_mentions, project_modules
from torchfix.model.semantic import Binding, BindingKind, Scope, ScopeKind, SemanticModel
from torchfix.model.test_code import (
    identifier_words,
    is_copied_code,
    is_example_code,
    is_test_path,
    is_vendored_path,
    mirrored_module,
)
from torchfix.rewrite.contract import Codemod, FileContext, Finding, Option, Safety
from torchfix.rewrite.layout import keeps_long_code_lines

from .always_raises import generator_length, unset_attribute
from .components import COMPONENT, unexported
from .own_exceptions import OWN_EXCEPTIONS
from .raise_census import census, errmsg_rule, totals
from .raises_doc import (
    GENERIC_DESCRIPTION,
    docstring_style,
    documents,
    raise_documentation,
    with_raises,
)


class Verdict(Enum):
    SAFE = "safe"  # an input check: rewritten by default
    UNSAFE = "unsafe"  # another runtime check: rewritten only with --unsafe-fixes
    REPORT = "report"  # code relies on the AssertionError: reported, never rewritten


@dataclass(frozen=True)
class Layout:
    """How the new code is written, as the project's formatter and linter want it."""

    line_length: int = 88
    quote: str | None = None  # the configured quote; None: the file's majority
    # flake8-errmsg (EM101/EM102/EM103): the name the message is assigned to first
    message_variable: str | None = None
    # SIM102: the assert is alone in an `if` (no else): the conditions are merged
    merge_with_if: bool = False
    # A trailing comment continued on the comment lines below: those lines move above
    # the `if` together with it
    comment_continued: int = 0
    # COM812 (ruff) or C812 (flake8-commas): a call split over lines ends its arguments
    # with a comma
    trailing_comma: bool = False
    # darglint's DAR401 or ruff's DOC501, and a docstring with sections: the exception
    # and its description, added to the function docstring's Raises section
    raises_doc: tuple[str, str] | None = None
    # The rule that flags the raise where the docstring cannot be edited safely
    undocumented_rule: str | None = None
    # The formatter that lays the code out ("ruff", "black", "yapf"; None: none found)
    formatter: str | None = None
    # yapf's layout: a call split over lines keeps its closing bracket after the last
    # argument, and continued string parts align after the opening one
    hugs_closing_bracket: bool = False
    # A raise as long as the assert it replaces stays on one line: the assert carries
    # `noqa`, or no formatter runs and the file keeps lines of code past the length
    long_lines_kept: bool = False


@dataclass(frozen=True)
class Decision:
    """What to do with one assert: the `data` of its finding, read by the editor."""

    verdict: Verdict
    # "ValueError", "TypeError", "IndexError", the exception the message names, or (for
    # `assert False`) "AssertionError"
    exception: str
    assertion: ast.Assert
    always_fails: bool = False  # `assert False, ...`: becomes a plain `raise`
    # `assert c, NotImplementedError` / `assert c, KeyError(k)`: the message is the
    # exception, raised as written
    raises_message: bool = False
    reason: str = ""  # why it is not SAFE
    layout: Layout = Layout()
    # `assert len(x) > 1`: an ordering of whole numbers, whose failure test is the flipped
    # comparison (`len(x) <= 1`); with a float (NaN) possible it stays `not (a > b)`.
    whole_number_order: bool = False

    def message(self) -> tuple[str, Safety]:
        """What the change says, and how safe it is."""
        if self.verdict is Verdict.REPORT:
            return self.reason, Safety.MANUAL
        message = f"assert is stripped by python -O: raise {self.exception} instead"
        if self.verdict is Verdict.UNSAFE:
            return f"{message} ({self.reason})", Safety.UNSAFE
        return message, Safety.SAFE

    @property
    def condition_text(self) -> str:
        """The condition as CPython writes it: one line, no comments."""
        return ast.unparse(self.assertion.test)


ASSERTION_ERROR = "AssertionError"
TYPE_CHECK_FUNCTIONS = frozenset(
    {"builtins.isinstance", "builtins.issubclass", "builtins.callable", "torch.is_tensor"})
# The builtin exception classes, by name: `assert c, NotImplementedError` raises one.
BUILTIN_EXCEPTIONS = frozenset(
    name for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException))
# `type(x) is float`, `type(x) in (int, float)`: the comparisons that check a type.
_TYPE_COMPARISONS = (ast.Is, ast.IsNot, ast.Eq, ast.NotEq, ast.In, ast.NotIn)
_ORDERINGS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
# Methods and torch functions whose result depends on tensor values, not shapes. Under
# torch.compile an assert on such a value becomes an async device assert; an `if` on it
# breaks the graph. Under `python -O` the assert (and its device sync) was free.
TENSOR_VALUE_FUNCTIONS = frozenset(
    {
        "all", "allclose", "any", "count_nonzero", "equal", "isclose", "isfinite", "isinf",
        "isnan", "isneginf", "isposinf", "isreal", "item", "max", "mean", "min", "nonzero",
        "norm", "sum", "tolist", "unique",
    }
)
# Checks that, with no message, are mostly there to narrow a type for the type checker.
NARROWING_FUNCTIONS = frozenset(
    {"builtins.callable", "builtins.hasattr", "builtins.isinstance", "builtins.issubclass"}
)
# Methods that validate the fields a constructor just stored: `self.x` there is an input.
POST_INIT_METHODS = frozenset({"__post_init__", "__attrs_post_init__"})
# Methods that calling the class runs: a test calling `Config(...)` reaches their asserts.
CONSTRUCTION_METHODS = frozenset({"__init__", "__new__", *POST_INIT_METHODS})
# Calls that are true while torch.compile, TorchScript or the tracer runs the code: an
# assert under them is there for the compiler, and a raise would change what it traces.
COMPILE_GUARDS = frozenset({"is_compiling", "is_scripting", "is_tracing", "is_dynamo_compiling"})
# `torch.autograd.Function` under the names torch defines and exports it.
AUTOGRAD_FUNCTIONS = frozenset({
    "torch.autograd.Function", "torch.autograd.function.Function",
    "torch.autograd.function.InplaceFunction", "torch.autograd.InplaceFunction"})
# Bases whose `on_*` hooks a training framework calls with its own objects (the trainer,
# the module, its state): by top-level package, the class's last name.
FRAMEWORK_HOOK_BASES = {
    "lightning": frozenset({"Callback", "LightningModule", "LightningDataModule"}),
    "pytorch_lightning": frozenset({"Callback", "LightningModule", "LightningDataModule"}),
    "transformers": frozenset({"TrainerCallback"}),
}
# The last names of the decorators of kernel compilers (Triton, CuTe DSL, Numba, Warp,
# Taichi): an assert in their functions is the compiler's, and a raise may not compile.
KERNEL_DECORATORS = frozenset({"jit", "njit", "kernel"})
# TorchScript's: it compiles the assert into the function, where -O does not strip it.
TORCHSCRIPT_DECORATORS = frozenset({"torch.jit.script", "torch.jit.script_method"})
# Protocol hooks torch calls on a tensor subclass with what the class itself produced
# (`__tensor_unflatten__` gets the dict `__tensor_flatten__` made): internal invariants.
TENSOR_SUBCLASS_HOOKS = frozenset({"__tensor_flatten__", "__tensor_unflatten__",
                                   "__torch_dispatch__", "__torch_function__",
                                   "__coerce_tangent_metadata__", "__force_to_same_metadata__"})
# torch.fx's graph walkers: their node handlers get what FX hands them, not user input.
FX_PASS_BASES = frozenset({"Interpreter", "Transformer", "Tracer"})
FX_HANDLERS = frozenset({"placeholder", "get_attr", "call_function", "call_method",
                         "call_module", "output", "run_node", "create_arg", "create_node",
                         "create_proxy", "is_leaf_module"})
# Calls that write their text out and return None: as an assert's message, nothing to raise.
MESSAGE_PRINTERS = frozenset({"print", "warn", "debug", "info", "warning", "error",
                              "exception", "critical"})
# Package names that say their modules are not public API (besides a leading `_`).
PRIVATE_PACKAGES = frozenset({"internal", "_internal"})
# Why a constructor assert of a registry-built class in a built distribution is reported.
REGISTRY_CONSTRUCTOR = (
    "a constructor check of a registry-built class (`@X.register_module()`), or of a "
    "building block in the module of one: OpenMMLab-style projects test such config "
    "checks with `assertRaises(AssertionError)` in their repository, which an unpacked "
    "sdist or wheel does not ship: change the check and those tests together")
# A project-wide fact: how many of the project's modules import OpenMMLab's foundations
# ("12 of 340"), or "" where too few do to make it an OpenMMLab project.
OPENMMLAB = "assert-to-raise/openmmlab"
OPENMMLAB_PACKAGES = frozenset({"mmengine", "mmcv"})
# Where at least this share of the modules (and at least `OPENMMLAB_MIN` of them) build on
# mmengine or mmcv (mmyolo 0.6.0: 50 of 94; mmocr 1.0.1: 100 of 247; a project with one
# mmcv-backed module does not), and the project is an unpacked sdist or wheel, its asserts
# are left alone: OpenMMLab raises AssertionError for bad configs and arguments by
# convention, its repositories' tests expect it throughout (`pytest.raises(AssertionError)`;
# rounds 13-14 found such tests behind 14 of 90 sampled fixes in six OpenMMLab projects),
# and the tests that would say which are not shipped. In a repository its tests decide.
OPENMMLAB_SHARE = 0.10
OPENMMLAB_MIN = 5
# A project-wide fact: the project's input validators written with asserts and called
# from many modules (piq's `_validate_input`: 9 asserts, `if not __debug__: return`, called
# from 24 modules), space-separated ("" for none). Where a module validates its input with
# one, AssertionError is how the project reports bad input, and its tests (unseen in an
# sdist or wheel) expect it: round 16 found upstream tests behind 5 of piq's 9 wrong fixes.
ASSERT_VALIDATORS = "assert-to-raise/assert-validators"
ASSERT_VALIDATOR_MIN_ASSERTS = 5
ASSERT_VALIDATOR_MIN_MODULES = 5
# First words of the names of functions that validate what they are handed.
VALIDATOR_WORDS = frozenset({"validate", "check", "verify", "ensure"})
# Why a check of a validator written with asserts is left to a person (see
# `_in_assert_validator`).
ASSERT_VALIDATOR_REASON = ("this function validates with asserts: AssertionError is what it "
                           "raises, and tests the distribution does not ship may expect it")
# Why `assert False` is an unsafe fix wherever it is.
ALWAYS_FAILS = "always fails: marks code meant to be unreachable"
# What the `invariants` option takes: leave internal invariants alone, or offer them as
# unsafe fixes.
INVARIANT_MODES = ("ignore", "unsafe")
# Messages that call the assert an invariant of the library, not a check of input.
INVARIANT_MESSAGE = re.compile(
    r"(?-i:\bBUG\b)|\bthis is a bug\b|should (?:never|not) happen|can(?:not|'t) happen"
    # "Should never reach a leaf", "should not get here", "never reached"
    r"|should(?:n't| never| not) (?:reach|get here|be reached)|\bnever (?:be )?reached\b"
    r"|\binternal (?:\w+ )?error\b|\bunreachable\b|please report|\bsanity check\b"
    # "type checked on match()", "already validated", "is guaranteed by the loader"; not
    # "must be checked", "not guaranteed"
    r"|(?<!\bbe )\bchecked (?:on|in|by|at|during)\b"
    r"|\balready (?:been )?(?:checked|validated|verified|ensured)\b"
    r"|\b(?:is|are|was|were) guaranteed\b|(?<!\bnot )\bguaranteed by\b",
    re.IGNORECASE,
)
# How many words of an assert's message a test's `match=` pattern must find to name the
# assert on its own (`match="only ReplayBuffer is supported"`; not `match="gamma"`).
MATCHED_WORDS = 3
# Parameters that carry the user's choices: `assert cfg.device is not None` checks input.
# A comment on the assert's line or the line above that says it is there for the type
# checker: `assert mesh is not None  # For type checking, set in State.__init__`.
# A comment calling asserts temporary debugging: "remove these asserts", "debug assert".
DEBUGGING_COMMENT = re.compile(
    r"#.*(?:\bremove (?:these|this|the) asserts?\b|\bdebug(?:ging)? asserts?\b"
    r"|\btemporary asserts?\b)", re.IGNORECASE)
# A comment saying the case cannot arise: bio-embeddings' "Since the files are not user
# provided, this must never happen" above its asserts (round 29).
NEVER_HAPPENS_COMMENT = re.compile(
    r"#.*(?:\b(?:must|should|can|will)(?: ?not|n't)? never happen\b"
    r"|\b(?:must|should|can|will)(?: ?not|n't) happen\b|\bcannot happen\b|\bimpossible\b"
    r"|\bnot user[- ]provided\b|\binvariant\b)", re.IGNORECASE)
BUILTIN_NAMES = frozenset(dir(builtins)) | {"__file__", "__name__", "__doc__", "__spec__",
                                              "__package__", "__builtins__", "__path__"}
TYPE_CHECKER_COMMENT = re.compile(
    r"#.*(?:\btype[- ]?check|\bmypy\b|\bpyright\b|\bpyre\b|\bnarrow|\btyping\b"
    r"|\btype[- ]?hint)",
    re.IGNORECASE,
)
# A message saying the case is a feature still missing ("not yet supported", "not
# implemented"), not a bad value: litgpt's "multiple batch dims not yet", whose MPS branch
# raises NotImplementedError for the same condition.
NOT_YET = re.compile(r"\bnot (?:yet\b|implemented\b)|\bunimplemented\b", re.IGNORECASE)
# A check that a path is there, which raises FileNotFoundError when it fails.
OS_PATH_CHECKS = frozenset({"os.path.isfile", "os.path.exists", "os.path.isdir"})
PATH_METHOD_CHECKS = frozenset({"exists", "is_file", "is_dir"})
# `path.exists()`, `os.path.isfile(path)`: whether a path is there to be opened.
PATH_TESTS = frozenset({"exists", "is_file", "isfile"})
# What opens a path, called on it (`path.open()`) or with it first (`open(path)`).
PATH_READS = frozenset({"open", "read_text", "read_bytes"})
OPENERS = frozenset({"open", "load", "safe_open", "load_file", "read_csv", "imread", "loadtxt"})
# The builtin exceptions a handler may name that catch what the rewrite raises, by that
# exception: `except LookupError:` catches the new IndexError.
_CATCHING = {
    "ValueError": frozenset({"ValueError"}),
    "TypeError": frozenset({"TypeError"}),
    "IndexError": frozenset({"IndexError", "LookupError"}),
    "NotImplementedError": frozenset({"NotImplementedError", "RuntimeError"}),
    "FileNotFoundError": frozenset({"FileNotFoundError", "OSError", "IOError",
                                    "EnvironmentError"}),
}
CONFIG_PARAMETER = re.compile(
    r"(?:^|_)(?:config|configuration|cfg|conf|args|arguments|opts|options|hparams"
    r"|hyperparams|params|settings|spec)$",
    re.IGNORECASE,
)
# Names tried, in order, for the message of flake8-errmsg's `msg = "..."; raise E(msg)`.
MESSAGE_VARIABLES = ("msg", "message", "error_message")
DEFAULT_LINE_LENGTH = 88
# A project-wide fact ("<codemod>/<fact>", see `register_derived_fact`): whether the
# project's docstrings document what its functions raise, as darglint's DAR401 or
# pylint's docparams (`accept-no-raise-doc = no`) would have them, where no such linter
# configuration ships (an sdist leaves its CI's pylintrc behind). "documents", else "".
RAISES_DOCUMENTED = "assert-to-raise/raises-documented"
# Another: whether the project assigns its exception messages to a variable before raising
# (flake8-errmsg's form), "assigns", else "" (see `messages_assigned`).
MESSAGES_ASSIGNED = "assert-to-raise/messages-assigned"
MESSAGES_ASSIGNED_MIN = 20
MESSAGES_ASSIGNED_SHARE = 0.9
# The convention holds where at least this share of the functions that raise (and whose
# docstring has sections) have a Raises section or `:raises` field, and at least
# `RAISES_DOCUMENTED_MIN` of them do: projects that follow the rule document (nearly)
# every raise (garage 59 of 59, pykeen 98 of 99, effdet 36 of 36, imitation 67 of 67);
# those documenting some modules' raises stop at two in three (pytorch-ood 87 of 138,
# gliner 32 of 57), and an added entry there only turns a safe fix unsafe where the
# docstring cannot take it.
RAISES_DOCUMENTED_SHARE = 0.75
RAISES_DOCUMENTED_MIN = 5
# What `Layout.undocumented_rule` holds where the project's convention, not a linter,
# wants the raise documented.
RAISES_CONVENTION = "the project's convention"
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_COMPOUND_STATEMENTS: tuple[type, ...] = (
    ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith,
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Match,
    *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_BROAD_EXCEPTIONS = frozenset({"Exception", "BaseException"})
_TRIES: tuple[type, ...] = (ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))


def _invariants_mode(value: str) -> None:
    if value not in INVARIANT_MODES:
        raise ValueError(f"invariants must be one of {', '.join(map(repr, INVARIANT_MODES))}, "
                         f"not {value!r}")


class AssertToRaise(Codemod):
    """Turn runtime checks written as `assert` into `if ...: raise ValueError(...)`.

    ## What it does
    Rewrites `assert cond, msg` into `if not cond: raise ValueError(msg)`, or `TypeError`
    when the condition is an `isinstance`/`issubclass`/`callable`/`torch.is_tensor` check
    (alone, or with `x is None` beside it) or `type(x) is T`, `IndexError` for an
    ordering check of the index in `__getitem__(self, idx)`; a
    message that is an exception (`assert c, NotImplementedError`: a builtin exception
    class, a name ending in `Error`/`Exception`, or a call of one) is raised as written.
    The condition is inverted
    where that is exactly equivalent (`==`/`!=`, `is`/`is not`, `in`/`not in`, `not x`);
    otherwise it is wrapped in `not (...)` (`a < b` never becomes `a >= b`: NaN compares
    false both ways). The message expression is kept as written; an assert without one
    (or with an empty string) gets `"expected <condition>"`: the condition's source on
    one line, in a plain string literal (quotes and backslashes escaped, braces left as
    they are).

    Comments before, inside and after the assert are kept (a trailing comment moves to
    the `if` line; one wrapped onto comment lines below moves above the `if`, with them;
    a pragma, `# noqa: E501` or `# type: ignore`, stays with what it protects: on the
    message's line when the condition ended above it, on both lines for a one-line
    assert). A condition or message that a formatter split over lines only to fit the
    assert goes back on one line when it fits in `line-length`; a test that does not fit
    (split before, or grown past the line by `not (...)`) is split as ruff and black
    split it (`if not (` / one operand of `and`/`or` a line / `):`, or a call's
    arguments on a line of their own), else keeps its layout; a message aligned under
    the assert, or continued with backslashes, gets a hanging indent inside the call,
    and a `raise` too long for one line puts its message on a line of its own (a
    triple-quoted message whose first line no longer fits moves, text unchanged, to a
    line of its own inside the call, the `)` after it, where its first line then
    fits). A plain
    string message (or generated one) that the assert's lines held but that no longer
    fits a level deeper is split as a maintainer keeps a string within the line: its
    implicitly concatenated parts one a line, broken after a space (not inside the
    text's brackets when a break outside does as well), which black and ruff format
    leave as they are. `if x: assert y` and `a = 1; assert a` are split into lines.

    The project's formatter and linter configuration (ruff's or black's, at the project
    root; with neither, flake8's `max-line-length`; else yapf's `column_limit`) is
    followed: its line length (unless `line-length`
    is set here), its quote style for generated messages (else the file's majority);
    with ruff's flake8-errmsg rules (`EM101`/`EM102`/`EM103`) the message is assigned to
    `msg` (`message`, `error_message` if taken) before `raise ValueError(msg)`; with
    `COM812` a message on a line of its own inside `ValueError(...)` ends with a comma;
    with `SIM102` an assert alone in an `if` without `else` merges into it: `if outer
    and not cond: raise ...`. `per-file-ignores` count. flake8 plugins the project runs
    count too: flake8-commas (`C812`, flake8 configured and `flake8-commas` listed in
    its requirements or pre-commit configuration) as `COM812`; darglint (`DAR401`: a
    `[darglint]` section in `setup.cfg`/`tox.ini`/`.flake8`, or `darglint` listed) and
    ruff's `DOC501` flag a raise the docstring does not document, so where the function's
    docstring has sections (Google `Args:`, NumPy `Parameters` / `----------`, Sphinx
    `:param`), the exception is added to its `Raises` section in the docstring's own
    style and indentation (made at the end where there is none; the assert's message, or
    its condition, describes it, wrapped where it would pass the line length; one entry
    an exception), and where that cannot be done safely (an f-string or concatenated
    docstring, closing quotes after the text) the fix is unsafe, naming the rule. A
    project whose own docstrings document what its functions raise (`RAISES_DOCUMENTED`:
    three in four, and at least five, of the functions that raise and whose docstring has
    sections) is treated the same way with no linter configured.

    ## Why
    `python -O` (and `PYTHONOPTIMIZE`) removes every `assert`. A check on a learning rate,
    a discount factor or a tensor shape then lets bad input through silently and training
    goes on with NaNs or broadcast garbage. An explicit `raise` always runs, and a
    `ValueError`/`TypeError` tells the caller that the argument, not the library, is wrong.

    ## Example
    ```python
    def ppo_loss(ratio, advantages, clip_range: float, config=None):
        if config is None:
            config = PPOConfig()
        assert 0.0 < clip_range < 1.0, f"clip_range must be in (0, 1), got {clip_range}"
        assert config.gamma == DEFAULT_GAMMA, "PBRS gamma must match PPO gamma"
        assert ratio.shape == advantages.shape
    ```
    becomes
    ```python
    def ppo_loss(ratio, advantages, clip_range: float, config=None):
        if config is None:
            config = PPOConfig()
        if not (0.0 < clip_range < 1.0):
            raise ValueError(f"clip_range must be in (0, 1), got {clip_range}")
        if config.gamma != DEFAULT_GAMMA:
            raise ValueError("PBRS gamma must match PPO gamma")
        if ratio.shape != advantages.shape:
            raise ValueError("expected ratio.shape == advantages.shape")
    ```

    ## Fix safety
    The fix is **safe** for input checks: an assert in a public function or method whose
    condition reads a parameter (or an attribute of one, like `config.gamma`; `self.x` in
    `__post_init__`) that has not been reassigned before the assert, and reads no other
    local variable but those holding only the caller's values (a local bound once before
    the assert from parameters, constants and builtins, `n = len(low)`; the target of a
    `for` directly over a parameter, or `zip`/`enumerate` of parameters; names unpacked
    from them, `height, width = image_size`; a reassignment in the other branch of an
    `if` around the assert does not reach it). Giving a
    parameter its default (`if config is None: config =
    DefaultConfig()`, or `if not config:`, the default reading no other local variable)
    does not count as reassigning it: the value is still the caller's, or the default.
    An assert inside that `if` checks the default, not the input, and a message-less
    `assert config is not None` after it narrows the default's type.

    Everything else is an internal invariant of the library, or a check written for the
    type checker, and an assert is the right tool for it: by default (`invariants =
    "ignore"`) it is **left alone** without a word, as test code is. That is: asserts at
    module level or in a class body, in nested functions, in private functions and the
    methods of private classes; asserts that read values computed in the function (state
    on `self` among them) or read no parameter; `self.slots[i] is None` outside the
    constructor (a slot of the object's state the parameters only pick); asserts under a
    package named `internal` or `_internal`; the methods of a
    `torch.autograd.Function` subclass (autograd passes their arguments); in a
    registry-built class
    (`@MODELS.register_module()`) the checks of any method but the constructor that
    compare lengths or numbers of dimensions (`len(x) == self.num_levels`: what the
    framework hands between stages); message-less checks of a parameter's
    attribute (`assert trainer.max_epochs is not None`, `assert algo.impl`: written to
    narrow a type for mypy, about state handed in rather than user input; also `and`-ed
    with other checks); `is not None` checks of a parameter's attribute, with a message
    or not (`assert state.model is not None, "Model must be in state"`: whether an object
    handed in has been set up), except on a configuration (`cfg`, `config`, `*_config`,
    `args`, `options`, `hparams`, `params`, `settings`: `assert cfg.device is not None,
    "set a device"` stays an input check); message-less `assert x is not None` on a
    parameter whose signature lets it be None (a `None` default, `Optional[...]` or
    `... | None`), or after the body gave it its default: the assert narrows it where
    the library knows it is set; asserts whose message calls them a bug or an internal
    error (`"BUG: ..."`, `"should never happen"`) or says the condition is checked
    elsewhere (`"checked on match()"`, `"already validated"`, `"guaranteed by the
    sampler"`; not `"must be checked"`) or a `"sanity check"`; checks of a parameter
    that an earlier `if ...: raise` of the function already validates; and `assert x is
    not None` after a statement that always runs before it used `x` (`x.shape[1]`); and
    in a class that is an inner component of the package (`components.component`: built
    by the package's own classes or functions, without forwarding `*args`/`**kwargs`,
    and not exported by an `__init__.py` above it), the checks of any method but the
    constructor that only ask whether a parameter was passed (`exists(context) ^
    self.cross_attend`, `x is None`; not `x.ndim == 3`) and constructor checks of
    parameters every call in the package passes a literal or leaves to its default
    (`MV2Block(..., 1, ...)`).
    With `invariants = "unsafe"` they are offered as **unsafe** fixes instead, each with its reason.

    The fix is **unsafe** (applied with `--unsafe-fixes`) for the input checks it is not
    sure of: `assert False`, wherever it is (it becomes `raise AssertionError(...)`, a
    bare `raise AssertionError` without a message: the same exception, no longer
    stripped by `-O`); conditions on tensor values (`.all()`,
    `.item()`, `torch.isfinite`, ...: the rewrite keeps a device sync that `-O` removed
    and breaks the `torch.compile` graph where the assert did not); every assert in a
    file that catches `AssertionError` somewhere; and every assert of a distribution
    (`pyproject.toml`, `setup.py`, `setup.cfg`, `PKG-INFO` or `*.dist-info` at the root)
    that ships no tests (a test file holds a `test*` function, a `Test*` class or a
    `TestCase`; helper modules such as `test_utils.py` or `test_helpers.py` do not
    count): the tests that may expect its AssertionError exist, but cannot be seen. In an
    unpacked sdist or wheel, the constructor checks of a registry-built class are
    reported instead: OpenMMLab-style projects test them with
    `assertRaises(AssertionError)` in the repository.

    Reported, never rewritten (the code relies on the AssertionError): an assert inside a
    `try` whose handler catches `AssertionError`, in a function that such a `try` in the
    same file calls, in a function whose docstring (or, for `__init__`, whose class's
    docstring) says it raises `AssertionError`, and an assert that a test of the
    repository expects: `pytest.raises(AssertionError)`, `assertRaises(AssertionError)`
    or a `try` whose handler catches `AssertionError` (in any test file under the
    project root: the git root, else the folder checked) around a call of its function
    (of its class, for `__init__` and `__post_init__`), or around a call that reaches
    the assert's function up to three calls deeper through the project (`TabularModel(...)`
    -> `__init__` -> `self._read_config()` -> `InferredConfig.__post_init__`): calls of
    the project's functions and classes (their `__init__`, `__new__`, `__post_init__`),
    imported across modules, `self.method()` and `super().method()` in the class and its
    project bases, `self.x.method()` where the class says what builds `self.x`, methods
    of a local `x = Cls(...)`, and the calls of the test file's own helper functions in
    their place. A call the model cannot resolve (a class picked by name at runtime) is
    not followed. In every case the test's `match=` pattern, if any, must fit the
    assert's message (an f-string by its literal parts; a message that is not a literal
    always fits), and a test that accepts the new exception too
    (`pytest.raises((AssertionError, ValueError))`, `except Exception`) does not count.
    A test whose `match=` pattern (or `assertRaisesRegex` regex) finds at least three
    words of the assert's message (an f-string by its literal parts) names that assert
    and counts with no call path found (`match="only ReplayBuffer is supported"`, where a
    library calls the project's class back); a pattern that fits an empty message
    (`".*"`) names none.
    The finding names the test's file and line, and the calls that reach the assert.

    Never touched: test code (`test_*.py`, `*_test.py`, `conftest.py`, files under
    `test/`, `tests/`, `testing/` or `test_utils/` below the folder torchfix runs in,
    `testing.py`, `testing_utils.py`, `test_utils.py`, modules that import `pytest` or
    `unittest`, module-level `test*` functions, `Test*` and `*TestCase` classes, `assert*`
    helpers), asserts under `if TYPE_CHECKING:` or `if __debug__:`, asserts the compiler
    runs (under `if torch.compiler.is_compiling():`, `torch.jit.is_scripting()`,
    `is_tracing()`, or in the `else` of `if not ...:` those: a raise there changes what is
    traced), and asserts that can never fail (`assert (x, "message")`, `assert
    s.index(p) >= 0`, `assert len(x) >= 0`).

    Callers in other files that catch `AssertionError` cannot be seen: search for them
    before applying.
    """

    name = "assert-to-raise"
    summary = "Raise ValueError/TypeError instead of asserting on inputs: asserts vanish under -O."
    triggers = (b"assert",)
    fix_safety = "safe, unsafe"
    family = "assertions"
    editor = ".assert_to_raise_edit:AssertToRaiseEditor"
    options = (
        Option(
            "line-length", 88,
            "A `raise` longer than this (and than the assert it replaces) puts its message "
            "on a line of its own. Default: the project formatter's line length, else 88.",
        ),
        Option(
            "invariants", "ignore",
            'What to do with asserts that state an internal invariant or narrow a type '
            '(private functions, values computed in the function, `assert self.x is not '
            'None`): "ignore" (the default) leaves them alone without a word, "unsafe" '
            "offers them as unsafe fixes.",
            _invariants_mode,
        ),
    )

    @classmethod
    def skips_path(cls, path: Path) -> bool:
        return is_test_path(path)  # test assertions, not input checks

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        if _imports_test_framework(tree):
            return set()  # test code or test helpers: asserts are test assertions
        return {node.lineno for node in nodes_of(tree, ast.Assert)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        if _imports_test_framework(file.tree):
            return
        decider = _Decider(file)
        decided = [(node, decider.decide(node)) for node in nodes_of(file.tree, ast.Assert)]
        limit = file.project.formatter_settings().complexity_limit(decider._relative_path())
        whole = list(_whole_functions(decider.model, decided))
        for node, decision in _within_complexity(decider.model, whole, limit):
            if decision is not None:
                yield Finding(node, *decision.message(), data=decision)


HALF_CONVERTED = ("{count} other assert{s} of this function stay{verb} as written by default: "
                  "converting only some would leave the function half converted")


def _whole_functions(model: SemanticModel, decided: list[tuple[ast.Assert, Decision | None]]
                     ) -> Iterator[tuple[ast.Assert, Decision | None]]:
    """The decisions, with a function's safe fixes made unsafe where another assert of the
    same function is not a safe fix: left alone, reported or unsafe. A default run would
    rewrite some of its asserts and leave the others beside them, a mix every round-27
    reviewer rejected (megablocks' `load_balancing_loss` converting three checks and
    keeping the identical fourth, whose operand it had reassigned)."""
    by_function: dict[int, list[Decision | None]] = {}
    for node, decision in decided:
        by_function.setdefault(id(model.enclosing_function(node)), []).append(decision)
    for node, decision in decided:
        if decision is not None and decision.verdict is Verdict.SAFE:
            siblings = by_function[id(model.enclosing_function(node))]
            kept = sum(1 for other in siblings
                       if other is None or other.verdict is not Verdict.SAFE)
            if kept and model.enclosing_function(node) is not None:
                decision = replace(decision, verdict=Verdict.UNSAFE, reason=HALF_CONVERTED.format(
                    count=kept, s="" if kept == 1 else "s", verb="s" if kept == 1 else ""))
        yield node, decision


TOO_COMPLEX = ("assert is stripped by python -O, but converting the {count} assert{s} of "
               "{name}() into `if` statements takes its McCabe complexity from {before} to "
               "{after}, past the project's max-complexity {limit}: C901 would fail it; "
               "split the function or raise by hand")


def _within_complexity(model: SemanticModel,
                       decided: list[tuple[ast.Assert, Decision | None]], limit: int | None
                       ) -> Iterator[tuple[ast.Assert, Decision | None]]:
    """The decisions, with the fixes of a function reported instead where the `if`s they
    add take it past the project's `max-complexity` (ruff's or flake8's C901), which it
    is within today: torchwright (round 55, ruff `select = ["ALL"]`, "do not add
    ignores") got seven conversions in one function, from 5 to 12 over 10, and its
    reviewer called each of them wrong. A nested function's `if`s count in the functions
    around it too, as C901 counts them."""
    if limit is None:
        yield from decided
        return
    functions: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    added: dict[int, int] = {}
    for node, decision in decided:
        if decision is None or decision.verdict is Verdict.REPORT or decision.always_fails \
                or decision.layout.merge_with_if:
            continue  # `assert False` becomes a `raise`, a merged one joins its `if`
        for ancestor in model.ancestors(node):
            if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions[id(ancestor)] = ancestor
                added[id(ancestor)] = added.get(id(ancestor), 0) + 1
    over: dict[int, str] = {}
    for key, function in functions.items():
        before = complexity(function)
        if before <= limit < before + added[key]:
            count = added[key]
            over[key] = TOO_COMPLEX.format(count=count, s="" if count == 1 else "s",
                                           name=function.name, before=before,
                                           after=before + count, limit=limit)
    for node, decision in decided:
        if decision is not None and decision.verdict is not Verdict.REPORT and over:
            reason = next((over[id(ancestor)] for ancestor in model.ancestors(node)
                           if id(ancestor) in over), None)
            if reason is not None:
                decision = replace(decision, verdict=Verdict.REPORT, reason=reason)
        yield node, decision


@dataclass(frozen=True)
class _Function:
    """The function an assert is in, as the semantic model places it."""

    node: ast.FunctionDef | ast.AsyncFunctionDef
    scope: Scope  # the scope its body opens
    owner: ast.ClassDef | None  # the class it is a method of
    nested: bool  # defined inside another function

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def public(self) -> bool:
        if self.owner is not None and self.owner.name.startswith("_"):
            return False  # a method of a private class
        name = self.name
        return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))

    @property
    def tested_as(self) -> str:
        """The name a test calls to run its asserts: a constructor's is its class's."""
        if self.owner is not None and self.name in CONSTRUCTION_METHODS:
            return self.owner.name
        return self.name

    def documents_assertion_error(self) -> bool:
        """Whether its docstring (a constructor's: or its class's) promises AssertionError."""
        documented: list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] = [self.node]
        if self.owner is not None and self.name == "__init__":
            documented.append(self.owner)
        return any(
            ASSERTION_ERROR in (ast.get_docstring(node, clean=False) or "") for node in documented
        )


class _Decider:
    """Decides each assert of one file from its semantic model and the project's tests."""

    def __init__(self, file: FileContext) -> None:
        self.file = file
        self.model: SemanticModel = file.semantic
        tries = [node for kind in _TRIES for node in nodes_of(file.tree, kind)]
        catching = [node for node in tries if _catches_assertion_error(node)]
        self.catches_assertion_error = bool(catching)
        self.checked_calls = _called_names(catching)  # called where AssertionError is caught
        self._expectations: tuple[Expectation, ...] | None = None
        self._assertion_error_documenter: str | None = None  # "": none; see its method
        self._assert_validated: bool | None = None  # see _validates_with_asserts
        self._openmmlab_modules: str | None = None  # see _openmmlab
        self._own_exception_convention: str | None = None  # see _own_exceptions_instead
        self._handed_kernels: set[str] | None = None  # see _in_compiled_kernel
        self.invariants = str(file.option("invariants", AssertToRaise))
        self.example_code = is_example_code(file.path, file.text)
        self.copied_code = (is_copied_code(file.text) or is_vendored_path(file.path)
                            or mirrored_module(file.path, file.module.name.split(".")[0],
                                               _absolute_imports(file.tree)) is not None)
        self.deprecated_module = _warns_deprecated_on_import(file.tree, file.semantic)
        self._long_lines_kept: dict[int, bool] = {}  # see _keeps_long_lines
        self._dispatch_handlers: set[str] | None = None  # see _dispatched_handler
        # A module holding registry-built classes (mmpose's resnet.py: ResNet registered,
        # its BasicBlock not): its building blocks' config checks are tested alike.
        self.registers_classes = b"register_module" in file.text.encode() and any(
            _registry_built(node) for node in nodes_of(file.tree, ast.ClassDef))

    def _undefined_in_message(self, node: ast.Assert) -> str | None:
        """A name the message reads that no scope around it binds, nor builtins nor a
        star import provide; None where every name is defined."""
        return self._undefined_in(node.msg) if node.msg is not None else None

    def _undefined_in(self, expression: ast.expr) -> str | None:
        """A name `expression` reads that no scope around it binds, nor builtins nor a
        star import provide; None where every name is defined."""
        if self.model.module_scope.star_imports:
            return None
        for name in ast.walk(expression):
            if (isinstance(name, ast.Name) and isinstance(name.ctx, ast.Load)
                    and name.id not in BUILTIN_NAMES and not self.model.bindings(name)):
                return name.id
        return None

    def expectations(self) -> tuple[Expectation, ...]:
        if self._expectations is None:
            self._expectations = self.file.project.assertion_expectations()
        return self._expectations

    def decide(self, node: ast.Assert) -> Decision | None:
        """What to do with the assert; None where it is left alone without a word."""
        raised = self._exception_object(node.test)
        if raised is not None:  # `assert RuntimeError("...")`: true, so it never fails
            return Decision(Verdict.REPORT, raised, node, reason=(
                f"asserts a {raised} object, which is true: the check never fails; "
                f"`raise {raised}(...)` was meant"))
        if _built_string(node.test):
            # pytext's `assert "not a valid action: {}".format(action)` (round 26),
            # careamics' `assert f"..."`: a message written where a raise was meant
            return Decision(Verdict.REPORT, "ValueError", node, reason=(
                "asserts a non-empty string, which is true: the check never fails; "
                "`raise ValueError(...)` with that message was meant"))
        if isinstance(node.test, (ast.ListComp, ast.List)):
            # tntorch's `assert [t.dim() == 3 for t in ts]`, slideflow's `assert([y in (0,
            # 1) for y in y_true])` (round 29): a list is true unless empty, whatever its
            # items; a raise would keep the check that never runs
            return Decision(Verdict.REPORT, "ValueError", node, reason=(
                "asserts a list, which is true unless it is empty: the check never fails "
                "on its items; `all(...)` was probably meant"))
        undefined = self._undefined_in(node.test)
        if undefined is not None and any(undefined in scope.bindings
                                         for scope in self.model.scopes):
            # torchir's `assert shape == coordinate_grid.shape[2:]` (round 50), copied
            # from a method where `shape` is a local: here nothing defines it, and the
            # check raises NameError, as would a raise. (A name no scope of the module
            # binds may come from where torchfix cannot see: a snippet, `builtins`.)
            return Decision(Verdict.REPORT, "ValueError", node, reason=(
                f"the check reads `{undefined}`, which nothing defines here: it raises "
                "NameError whenever it runs, and a raise would keep that; fix the check"))
        undefined = self._undefined_in_message(node)
        if undefined is not None:
            # torchgeometry's `assert ..., pinhole.shape` in a function whose parameter is
            # `pinhole_i` (round 30): the raise would copy a NameError, not a ValueError
            return Decision(Verdict.REPORT, "ValueError", node, reason=(
                f"the message reads `{undefined}`, which nothing defines here: a failing "
                "check raises NameError, and a raise would keep that; fix the message"))
        compared = _type_compared_with_string(node.test)
        if compared is not None:
            # pytorch-policy's `assert type(scalars) == 'dict'` (round 41): a type never
            # equals a string, so the check fails on every call; a raise would keep that
            return Decision(Verdict.REPORT, "TypeError", node, reason=(
                f"`{compared}` compares a type with a string, which never holds: the check "
                "fails on every call; `isinstance(...)` was probably meant"))
        identity = self._instance_is_class(node.test)
        if identity is not None and identity[1]:
            # torch-npu's `assert sub_kernel is not NPUIndexTritonKernel` (round 55): an
            # instance is never the class, so the check cannot fail; a raise as dead
            return Decision(Verdict.REPORT, "TypeError", node, reason=(
                f"`{identity[0]}` compares an object with a class by identity, which holds "
                "for every instance: the check never fails; `not isinstance(...)` was "
                "probably meant"))
        if identity is not None:
            # pytorch-quant-tool's `assert model is nn.Module` (round 48): an object is the
            # class only where the class itself is passed; a raise would keep the bug
            return Decision(Verdict.REPORT, "TypeError", node, reason=(
                f"`{identity[0]}` compares an object with a class by identity, which holds "
                "only for the class itself: the check fails for every instance; "
                "`isinstance(...)` was probably meant"))
        always = self._always_raises(node)
        if always is not None:
            return Decision(Verdict.REPORT, "ValueError", node, reason=always)
        if isinstance(node.msg, ast.Compare) and not _always_false(node.test):
            # torchscale's `assert bsz, src_len == value.shape[:2]` (round 25): the tuple
            # meant to be compared was split at its comma into a test and a message
            return Decision(Verdict.REPORT, "ValueError", node, reason=(
                f"the message is a comparison: `assert {ast.unparse(node.test)}, "
                f"{ast.unparse(node.msg)}` checks only `{ast.unparse(node.test)}`, and a "
                "comparison of a tuple was probably meant; a rewrite would keep the bug"))
        if (_always_true(node.test) or self._cannot_fail(node.test)
                or self._checked_by_the_if(node)
                or self._held_by_branch(node) or self._in_test_code(node)
                or self._never_checked(node)
                or self._checks_torch_version(node.test) or self._in_broad_try(node)
                or self._opened_next(node) or self._indexed_next(node)
                or self._in_compiled_kernel(node) or self._dispatched_next(node)
                or self._raised_next(node) or self._falls_back_next(node)
                or self._asserting_function(node)
                or self._unreachable(node) or self._narrows_optional_local(node)):
            return None
        function = self._function(node)
        always_fails = _always_false(node.test)
        raised = None if always_fails else self._raised_message(node.msg)
        # `assert False` marks code that must not be reached, not a bad argument: keep the
        # exception callers already see, only make it survive -O.
        exception = ("AssertionError" if always_fails
                     else raised if raised is not None
                     else "NotImplementedError" if (
                         NOT_YET.search(self._message_text(node.msg) or ""))
                     else "TypeError" if self._is_type_check(node.test)
                     else "FileNotFoundError" if self._is_path_check(node.test)
                     else "IndexError" if self._is_index_check(node.test, function)
                     else "ValueError")
        if exception == "TypeError" and self._documents_value_error_only(function):
            # pina's `:raises ValueError: If ``input_dim`` is not an integer.` over `assert
            # isinstance(input_dim, int)`: raise what the function says it raises
            exception = "ValueError"
        decision = Decision(Verdict.SAFE, exception, node, always_fails=always_fails,
                            raises_message=raised is not None,
                            whole_number_order=self._orders_whole_numbers(node.test, function))
        reported = self._reliance(node, function, exception) or _prints_message(node.msg) \
            or self._own_exceptions_instead(exception)
        if reported:
            return replace(decision, verdict=Verdict.REPORT, reason=reported)
        if self._invariant(node, function):
            return None  # an internal invariant: an assert is the right tool
        if self._openmmlab() or self._validates_with_asserts():
            return None  # the project's convention: see OPENMMLAB_SHARE, ASSERT_VALIDATORS
        if self._in_assert_validator(function):
            return replace(decision, verdict=Verdict.REPORT, reason=ASSERT_VALIDATOR_REASON)
        if (function is not None and function.owner is not None
                and function.name in CONSTRUCTION_METHODS
                and (_registry_built(function.owner) or self.registers_classes)
                and self.file.project.is_built_distribution()):
            return replace(decision, verdict=Verdict.REPORT, reason=REGISTRY_CONSTRUCTOR)
        unexplained = _formatted_condition_unexplained(node)
        if unexplained:
            return replace(decision, verdict=Verdict.REPORT, reason=unexplained)
        decision = replace(decision, layout=self._layout(node, decision, function))
        unsafe = self._unsafe_reason(node, function)
        if unsafe:
            return replace(decision, verdict=Verdict.UNSAFE, reason=unsafe)
        rule = decision.layout.undocumented_rule
        if rule == RAISES_CONVENTION:
            return replace(decision, verdict=Verdict.UNSAFE, reason=(
                "the project's docstrings document what its functions raise, and "
                f"{decision.exception} cannot be added to this one safely"))
        if rule is not None:
            return replace(decision, verdict=Verdict.UNSAFE, reason=(
                f"{rule} would flag the new raise: the docstring documents what the "
                f"function raises, and {decision.exception} cannot be added to it safely"))
        return decision

    # -- how the new code is written -----------------------------------------------------

    def _orders_whole_numbers(self, test: ast.expr, function: _Function | None) -> bool:
        """`len(x) > 1`, `x.ndim >= 3`, `n >= 0` with `n: int`: one ordering comparison
        whose operands cannot be NaN, so `not (a > b)` is exactly `a <= b`."""
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1
                and isinstance(test.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE))):
            return False
        annotated = _int_parameters(function.node) if function is not None else set()
        return all(self._whole_number(operand, annotated)
                   for operand in (test.left, *test.comparators))

    def _whole_number(self, expr: ast.expr, int_parameters: set[str], depth: int = 0) -> bool:
        if isinstance(expr, ast.Constant):
            return isinstance(expr.value, int)
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
            return self._whole_number(expr.operand, int_parameters, depth)
        if isinstance(expr, ast.BinOp) and isinstance(
                expr.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)):
            return (self._whole_number(expr.left, int_parameters, depth)
                    and self._whole_number(expr.right, int_parameters, depth))
        if isinstance(expr, ast.Name):
            bindings = self.model.bindings(expr)
            if len(bindings) == 1 and _plain_assignment(bindings[0]) and depth < 3:
                # `num_channels = samples.shape[1]`, bound once: as whole as its value
                value = bindings[0].value
                return value is not None and self._whole_number(value, int_parameters,
                                                                depth + 1)
            return expr.id in int_parameters and bool(bindings) and all(
                binding.kind is BindingKind.PARAMETER for binding in bindings)
        if isinstance(expr, ast.Attribute):
            return expr.attr == "ndim"
        if isinstance(expr, ast.Subscript):  # `x.shape[0]`, `x.size()[1]`
            base = expr.value
            return not isinstance(expr.slice, ast.Slice) and (
                (isinstance(base, ast.Attribute) and base.attr == "shape")
                or (isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute)
                    and base.func.attr == "size" and not base.args))
        if isinstance(expr, ast.Call):
            func = expr.func
            if isinstance(func, ast.Name):
                return func.id in ("len", "int") and self.model.is_builtin(func)
            if isinstance(func, ast.Attribute):
                return ((func.attr in ("dim", "ndimension", "numel") and not expr.args)
                        or (func.attr == "size" and len(expr.args) == 1))
        return False


    def _layout(self, node: ast.Assert, decision: Decision, function: _Function | None) -> Layout:
        """Line length, quotes and lint rules of the project, for this assert."""
        project = self.file.project
        settings = project.formatter_settings()
        if "line-length" in self.file.options:
            line_length = int(self.file.options["line-length"])
        else:
            line_length = settings.line_length or DEFAULT_LINE_LENGTH
        path = self._relative_path()
        # `raise AssertionError` for a bare `assert False`; the message's own exception
        rule = (None if decision.raises_message or (decision.always_fails and node.msg is None)
                else errmsg_rule(node.msg))
        variable = None
        if rule is not None and (settings.enables(rule, path) or project.derived(
                MESSAGES_ASSIGNED, str(project.root)) == "assigns"):
            scope_node: ast.AST = function.node if function is not None else self.file.tree
            used = _names_used(scope_node)
            variable = next((name for name in MESSAGE_VARIABLES if name not in used), None)
        merge = False
        parent = self.model.parent(node)
        if (not decision.always_fails and isinstance(parent, ast.If) and len(parent.body) == 1
                and not parent.orelse and node.lineno > parent.lineno
                and settings.enables("SIM102", path)):
            merge = True
        raises_doc, undocumented = self._raises_doc(node, decision, function)
        return Layout(line_length, settings.quote, variable, merge,
                      self._continued_comment(node, line_length),
                      settings.enables("COM812", path) or settings.enables("C812", path),
                      raises_doc, undocumented, settings.formatter,
                      settings.hugs_closing_bracket,
                      self._keeps_long_lines(node, settings.formatter, line_length))

    def _keeps_long_lines(self, node: ast.Assert, formatter: str | None,
                          line_length: int) -> bool:
        """Whether a raise may be as long as the assert it replaces: a formatter splits a
        long raise at its brackets (black, mistral-inference's and torchode's 88 and 120,
        round 18), so only an assert whose `noqa` keeps it long, or a file that keeps
        long lines of code with no formatter, keeps a long raise."""
        span = self.file.span(node)
        if any("noqa" in line for line in self.file.lines[span.line - 1:span.end_line]):
            return True
        if formatter is not None:
            return False
        if line_length not in self._long_lines_kept:  # one walk of the file per length
            self._long_lines_kept[line_length] = keeps_long_code_lines(self.file, line_length)
        return self._long_lines_kept[line_length]

    def _raises_doc(self, node: ast.Assert, decision: Decision, function: _Function | None
                    ) -> tuple[tuple[str, str] | None, str | None]:
        """(the Raises entry to add to the function's docstring, or the lint rule that
        flags the raise where it cannot be added): where darglint (`DAR401`) or ruff's
        pydoclint rules (`DOC501`) run, or the project's docstrings document what its
        functions raise (`RAISES_DOCUMENTED`), and the docstring has sections."""
        if function is None:
            return None, None
        body = function.node.body
        if (not body or not isinstance(body[0], ast.Expr)
                or not isinstance(body[0].value, ast.Constant)
                or not isinstance(body[0].value.value, str)):
            return None, None
        text = body[0].value.value
        exception = decision.exception
        if docstring_style(text) is None or documents(text, exception):
            return None, None
        project = self.file.project
        settings = project.formatter_settings()
        path = self._relative_path()
        rule = next((rule for rule in ("DAR401", "DOC501") if settings.enables(rule, path)),
                    None)
        if rule is None and project.derived(RAISES_DOCUMENTED, str(project.root)):
            rule = RAISES_CONVENTION
        if rule is None:
            return None, None
        literal = self.file.source(body[0].value)
        for description in (self._raises_description(node, decision),
                            GENERIC_DESCRIPTION):
            if with_raises(literal, [(exception, description)]) is not None:
                return (exception, description), None
        return None, rule

    def _raises_description(self, node: ast.Assert, decision: Decision) -> str:
        """What the Raises entry says: the assert's message, else its condition."""
        message = node.msg
        if isinstance(message, ast.Constant) and isinstance(message.value, str):
            text = " ".join(message.value.split())
            if text:
                return text
        if decision.always_fails:
            return "If unreachable code is reached."
        return f"If `{ast.unparse(node.test)}` does not hold."

    def _relative_path(self) -> str | None:
        try:
            absolute = self.file.path.resolve()
            return absolute.relative_to(self.file.project.root.resolve()).as_posix()
        except (OSError, ValueError):
            return None

    def _continued_comment(self, node: ast.Assert, line_length: int) -> int:
        """How many comment-only lines below the assert continue its trailing comment:
        at the assert's indent, the first one's first word too long for the assert's line
        (`assert x  # so the largest value` + `# we can map is 255`: wrapped there)."""
        lines = self.file.lines
        span = self.file.span(node)
        start, end = lines[span.line - 1], lines[span.end_line - 1]
        trailing = end[span.end_column:].strip()
        if start[:span.column].strip() or not trailing.startswith("#"):
            return 0
        text = trailing.lstrip("#").strip()
        if not text or text.endswith((".", "!", "?", ":")) or _PRAGMA.match(text):
            return 0
        following = lines[span.end_line] if span.end_line < len(lines) else ""
        words = following.strip().lstrip("#").split()
        if not words or len(end.rstrip()) + 1 + len(words[0]) <= line_length:
            return 0
        count = 0
        for line in lines[span.end_line:]:
            stripped = line.lstrip()
            if not stripped.startswith("#") or len(line) - len(stripped) != span.column:
                break
            count += 1
        return count

    # -- where the assert is -------------------------------------------------------------

    def _function(self, node: ast.Assert) -> _Function | None:
        """The function whose body holds the assert directly (not in a class body)."""
        scope = self.model.scope_of(node)
        if scope.kind is not ScopeKind.FUNCTION:
            return None
        function = scope.node
        assert isinstance(function, _FUNCTIONS)
        around = self.model.scope_of(function)
        owner = around.node if around.kind is ScopeKind.CLASS else None
        nested = any(outer.is_function for outer in _scopes_from(around))
        return _Function(function, scope, owner, nested)  # type: ignore[arg-type]

    def _in_test_code(self, node: ast.Assert) -> bool:
        """In a test function, test class or `assert*` helper (at any depth)."""
        for scope in _scopes_from(self.model.scope_of(node)):
            definition = scope.node
            if isinstance(definition, ast.ClassDef) and _is_test_class(definition):
                return True
            if isinstance(definition, _FUNCTIONS):
                at_module_level = scope.parent is self.model.module_scope
                if _is_test_function(definition.name, at_module_level):
                    return True
        return False

    def _always_raises(self, node: ast.Assert) -> str | None:
        """Why the test raises before it can fail (see `always_raises`); None where it
        does not."""
        length = generator_length(node.test, self.model)
        if length is not None:
            return (f"`{length}` takes the length of a generator, a TypeError on every "
                    "call: the check never runs; `len(list(...))` or `sum(1 for ...)` "
                    "was meant")
        function = self._function(node)
        if function is None or function.owner is None or function.nested:
            return None
        unset = unset_attribute(node.test, function.node, function.owner, self.model,
                                self.file.project)
        if unset is None:
            return None
        return (f"`{unset}` is never set on {function.owner.name} nor its bases, so the "
                f"check raises AttributeError on every call of {function.name}; "
                "a raise would keep that: read what was meant (a parameter?) first")

    def _asserting_function(self, node: ast.Assert) -> bool:
        """Whether the assert is in a function named for asserting (aimet's
        `log_with_error_and_assert_if_false`, `assert_shape`): raising AssertionError is
        what it promises its callers (round 47)."""
        return any({"assert", "asserts"} & set(identifier_words(name))
                   for name in self.model.function_path(node)[-1:])

    def _checks_torch_version(self, test: ast.expr) -> bool:
        """`version.parse(torch.__version__) >= version.parse("2.0")` in the condition: a
        requirement on the installed torch, not a check of the caller's input (and often
        one the project's own floor already meets); ValueError would misname it."""
        return any(
            isinstance(node, ast.Attribute | ast.Name)
            and (self.model.qualified_name(node) or "").startswith(("torch.__version__",
                                                                    "torch.version."))
            for node in ast.walk(test))

    def _never_checked(self, node: ast.Assert) -> bool:
        """Under `if TYPE_CHECKING:` (never runs) or `if __debug__:` (gone with -O too),
        or where torch.compile, TorchScript or the tracer runs it (`if is_compiling():`,
        the `else` of `if not torch.jit.is_scripting():`)."""
        # `__debug__`, or a TYPE_CHECKING flag of the project's own
        return self.model.in_type_checking_block(node) or any(
            isinstance(block, ast.If) and isinstance(block.test, ast.Name)
            and block.test.id in ("__debug__", "TYPE_CHECKING")
            for block in _bodies_around(self.model, node)) or self._under_compiler(node)

    def _under_compiler(self, node: ast.Assert) -> bool:
        child: ast.AST = node
        for ancestor in self.model.ancestors(node):
            if isinstance(ancestor, (*_FUNCTIONS, ast.ClassDef)):
                return False
            if isinstance(ancestor, ast.If):
                if any(child is statement for statement in ancestor.body):
                    if _implies_compiling(ancestor.test):
                        return True
                elif _implies_not_compiling(ancestor.test):
                    return True
            child = ancestor
        return False

    def _in_compiled_kernel(self, node: ast.Assert) -> bool:
        """Whether the assert is in a function a kernel compiler takes (`@triton.jit`,
        `@cute.jit`, `@cute.kernel`, `@numba.njit`, `@wp.kernel`, `@torch.jit.script`):
        its compiler turns the assert into a device assert, a static check or its own
        error that -O does not strip, and CuTe DSL refuses a `raise` under a plain `if`
        (UNSUP_EARLY_EXIT; round 15's liger-kernel); or one handed to a kernel compiler's
        call (`pl.pallas_call(functools.partial(matmul_kernel, ...))`: torch-xla's Pallas
        kernels check the block shapes their own wrapper builds, round 46)."""
        if self._handed_kernels is None:
            self._handed_kernels = _handed_kernels(self.file.tree)
        for ancestor in self.model.ancestors(node):
            if isinstance(ancestor, _FUNCTIONS) and (any(
                    _kernel_decorator(self.model, decorator)
                    for decorator in ancestor.decorator_list)
                    or ancestor.name in self._handed_kernels):
                return True
        return False

    def _in_catching_try(self, node: ast.Assert) -> bool:
        """In the body of a `try` of the same function (or module) whose handlers catch
        AssertionError."""
        for block in _bodies_around(self.model, node):
            if isinstance(block, _FUNCTIONS):
                return False
            if isinstance(block, _TRIES) and _catches_assertion_error(block):
                return True
        return False

    def _in_broad_try(self, node: ast.Assert) -> bool:
        """In the body of a `try` of the same function (or module) whose handler catches
        every exception (`except Exception:`, `except:`) and does not raise again: the
        assert is how the code falls
        back (`try: assert s.startswith(p); return s[1:]` / `except Exception: return
        None`), not a check of input; a ValueError would take the same way out."""
        for block in _bodies_around(self.model, node):
            if isinstance(block, _FUNCTIONS):
                return False
            if isinstance(block, _TRIES) and any(
                    (handler.type is None or _last_name(handler.type) in _BROAD_EXCEPTIONS)
                    and not any(isinstance(inner, ast.Raise) for inner in ast.walk(handler))
                    for handler in block.handlers):  # type: ignore[attr-defined]
                return True  # a handler that raises again keeps the assert a check
        return False

    def _caught_at_once(self, node: ast.Assert, exception: str) -> str | None:
        """Why the new raise would be caught at once by a handler of a `try` around it
        (same function) that does not let it out as it is: a broad handler (`except:`,
        `except Exception:`) that raises its own exception (deepchem's `try: assert
        t.numel() == 1` / `except: raise AssertionError("Only 1 element ...")`), or a
        handler of the new exception itself (`except ValueError:`) that does anything but
        raise it again. None where no handler catches it, or each re-raises it (`raise`,
        `raise exc`): the new exception then goes on as it is."""
        own = _CATCHING.get(exception, frozenset({exception}))
        for block in _bodies_around(self.model, node):
            if isinstance(block, _FUNCTIONS):
                return None
            if not isinstance(block, _TRIES):
                continue
            for handler in block.handlers:  # type: ignore[attr-defined]
                caught = ([] if handler.type is None else handler.type.elts
                          if isinstance(handler.type, ast.Tuple) else [handler.type])
                names = {_last_name(name) for name in caught}
                broad = handler.type is None or bool(names & _BROAD_EXCEPTIONS)
                if not broad and not names & own:
                    continue
                if _reraises(handler):
                    continue
                raised = [inner for inner in ast.walk(handler) if isinstance(inner, ast.Raise)]
                if broad and raised:
                    return ("a handler around it catches every exception and raises its own: "
                            f"a {exception} here would be caught at once and never seen; "
                            "replace the try with the check and the handler's raise")
                if not broad:
                    return (f"a handler around it catches {exception} and does not raise it "
                            f"again: a {exception} here would be caught, where the "
                            "AssertionError went through; raise what the handler expects, "
                            "or narrow the try")
            # a broad handler with no raise: `_in_broad_try` left the assert alone
        return None

    # -- what relies on the AssertionError -----------------------------------------------

    def _reliance(self, node: ast.Assert, function: _Function | None,
                  exception: str) -> str | None:
        """Why code relies on the assert raising AssertionError; None if nothing does."""
        if self._in_catching_try(node):
            return ("a handler around it catches AssertionError, which a raise would bypass: "
                    "raise what the handler expects, or catch the new error")
        caught = self._caught_at_once(node, exception)
        if caught is not None:
            return caught
        if function is None:
            return None
        if function.name in self.checked_calls:
            return (f"{function.name}() is called where AssertionError is caught in this "
                    "file: a raise would bypass that handler")
        if function.documents_assertion_error():
            return (f"the docstring of {function.name}() says it raises AssertionError: "
                    "change the check and the docstring together")
        documenting = self._module_documents_assertion_error()
        if documenting is not None:
            return (f"{documenting} documents AssertionError as what this module's checks "
                    "raise (a validator family called through a registry, say): change the "
                    "checks and the docstring together")
        expectation = self._expected_by(node, function, exception)
        if expectation is not None:
            return (f"{expectation.path}:{expectation.line} expects AssertionError from "
                    f"{function.tested_as}(): a raise would fail that test; change the check "
                    "and the test together")
        reached = self._reached_by(node, function, exception)
        if reached is not None:
            test = reached.expectation
            calls = " -> ".join(f"{name}()" for name in reached.chain)
            if test.handler:
                return (f"the handler at {test.path}:{test.line} catches AssertionError from "
                        f"a call that reaches this assert ({calls}): a raise would bypass "
                        "it; raise what the handler expects, or catch the new error")
            return (f"{test.path}:{test.line} expects AssertionError from a call that reaches "
                    f"this assert ({calls}): a raise would fail that test; change the check "
                    "and the test together")
        matched = self._matched_by(node, exception)
        if matched is not None:
            return (f"{matched.path}:{matched.line} expects AssertionError matching "
                    f"{matched.pattern!r}, which this assert's message fits: a raise would "
                    "fail that test; change the check and the test together")
        return None

    def _own_exceptions_instead(self, exception: str) -> str | None:
        """Why `exception` is not the project's to raise: it raises its own classes (see
        `own_exceptions`); None where it does not, or for the AssertionError of `assert
        False`, which is what the code raised before."""
        if exception == "AssertionError":
            return None
        if self._own_exception_convention is None:
            project = self.file.project
            self._own_exception_convention = project.derived(OWN_EXCEPTIONS,
                                                             str(project.root))
        if not self._own_exception_convention:
            return None
        return (f"the project raises its own exceptions ({self._own_exception_convention} "
                f"the most): raise the one of them that fits, not {exception}")

    def _openmmlab(self) -> str:
        """"N of M" where the project is an OpenMMLab one unpacked from an sdist or wheel
        (see `OPENMMLAB_SHARE`), else "". In a repository its tests decide."""
        if self._openmmlab_modules is None:
            project = self.file.project
            self._openmmlab_modules = (project.derived(OPENMMLAB, str(project.root))
                                       if project.is_built_distribution() else "")
        return self._openmmlab_modules

    def _documents_value_error_only(self, function: _Function | None) -> bool:
        """Whether the function's docstring documents raising ValueError and not
        TypeError: its type checks then raise what it documents (round 17: pina)."""
        if function is None:
            return False
        text = ast.get_docstring(function.node, clean=False) or ""
        return documents(text, "ValueError") and not documents(text, "TypeError")

    def _in_assert_validator(self, function: _Function | None) -> bool:
        """Whether the assert is a check of a validator written with asserts (named
        `check_*`, `validate_*`, `verify_*` or `ensure_*`, raising nothing itself), in a
        project whose tests cannot be seen (an unpacked sdist or wheel, or a distribution
        shipping none): raising AssertionError is what such a function is for, and the
        tests that call it with bad input expect it (alma-torch's `check_input_type` and
        `check_model`: its repository's tests expect AssertionError of 7 of the 10 checks
        of its validators, round 53)."""
        if function is None:
            return False
        words = identifier_words(function.name)
        if len(words) < 2 or words[0] not in VALIDATOR_WORDS:
            return False
        project = self.file.project
        if not (project.is_built_distribution()
                or (project.is_distribution() and not project.has_tests())):
            return False
        return not any(isinstance(node, ast.Raise) for node in ast.walk(function.node))

    def _validates_with_asserts(self) -> bool:
        """Whether this module calls one of the project's assert-based input validators
        (see `ASSERT_VALIDATORS`) in a project whose tests cannot be seen (an unpacked
        sdist or wheel, or a distribution shipping none)."""
        if self._assert_validated is None:
            project = self.file.project
            self._assert_validated = False
            if project.is_built_distribution() or (project.is_distribution()
                                                   and not project.has_tests()):
                names = set(project.derived(ASSERT_VALIDATORS, str(project.root)).split())
                self._assert_validated = bool(names) and any(
                    _last_name(call.func) in names for call in nodes_of(self.file.tree, ast.Call))
        return self._assert_validated

    def _module_documents_assertion_error(self) -> str | None:
        """Where the module's docstring, or that of a function with no assert of its own,
        names AssertionError (lhotse's `validate()`: "It raises AssertionError when it
        finds some mismatch", over validators it dispatches to by type): the AssertionError
        it promises comes from the module's other checks, a contract its callers catch,
        whether or not the model follows the calls. A function documenting its own
        asserts' AssertionError speaks only for them (`documents_assertion_error`)."""
        if self._assertion_error_documenter is None:
            self._assertion_error_documenter = ""
            if ASSERTION_ERROR in self.file.text:
                functions = [*nodes_of(self.file.tree, ast.FunctionDef),
                             *nodes_of(self.file.tree, ast.AsyncFunctionDef)]
                documented: list[ast.Module | ast.FunctionDef | ast.AsyncFunctionDef] = [
                    self.file.tree, *(function for function in functions
                                      if not _asserts_itself(function))]
                self._assertion_error_documenter = next((
                    "the module's docstring" if isinstance(node, ast.Module)
                    else f"the docstring of {node.name}()"
                    for node in documented
                    if ASSERTION_ERROR in (ast.get_docstring(node, clean=False) or "")), "")
        return self._assertion_error_documenter or None

    def _expected_by(self, node: ast.Assert, function: _Function,
                     exception: str) -> Expectation | None:
        """The first test of the repository that calls this assert's function and expects
        its AssertionError (and no exception the rewrite raises)."""
        expectations = self.expectations()
        if not expectations:
            return None
        message = self._message_for_tests(node.msg)
        name = function.tested_as
        return next((e for e in expectations if not e.handler
                     and e.matches(name, message) and not e.accepts(exception)), None)

    def _reached_by(self, node: ast.Assert, function: _Function,
                    exception: str) -> Reached | None:
        """The first test whose expecting call reaches this assert's function through the
        project's calls (`Project.assertion_reach`)."""
        if not self.expectations():
            return None
        path = self.model.function_path(function.node)
        key = ".".join((self.file.module.name, *path, function.name))
        message = self._message_for_tests(node.msg)
        return next((r for r in self.file.project.assertion_reach().get(key, ())
                     if r.expectation.fits(message) and not r.expectation.accepts(exception)),
                    None)

    def _matched_by(self, node: ast.Assert, exception: str) -> Expectation | None:
        """The first test whose `match=` pattern (or `assertRaisesRegex` regex) finds
        at least `MATCHED_WORDS` words of the assert's message: the test names the assert
        by its message, whether or not the model follows the calls that reach it (a
        library calling back into the project, a class picked at runtime). A pattern
        that matches an empty message names nothing."""
        message = self._message_text(node.msg)
        if not message:
            return None
        template = self._message_for_tests(node.msg)
        for expectation in self.expectations():
            pattern = expectation.pattern
            if not pattern or expectation.accepts(exception):
                continue
            try:
                if re.search(pattern, "") is not None:
                    continue
                found = re.search(pattern, message)
            except re.error:
                continue
            if found is not None and len(found.group(0).split()) >= MATCHED_WORDS:
                return expectation
            # an f-string's message, with the values the test's call formats into it
            # ("probe expects 32-dim features")
            text = literal_pattern(pattern)
            if (isinstance(template, tuple) and text is not None
                    and len(text.split()) >= MATCHED_WORDS
                    and template_may_contain(template, pattern)):
                return expectation
        return None

    def _message_for_tests(self, message: ast.expr | None) -> str | MessageTemplate | None:
        """The message as a test's `match=` sees it: an f-string as its parts (each
        formatted value may be any text, `Expectation.fits`), else `_message_text`."""
        if isinstance(message, ast.JoinedStr):
            return tuple(part.value if isinstance(part, ast.Constant) else None
                         for part in message.values)
        return self._message_text(message)

    def _message_text(self, message: ast.expr | None) -> str | None:
        """What `str(error)` holds, as far as the source says: "" for no message, an
        f-string's literal parts; None when the message is not a literal."""
        if message is None:
            return ""
        if isinstance(message, ast.JoinedStr):
            return "".join(part.value for part in message.values
                           if isinstance(part, ast.Constant) and isinstance(part.value, str))
        value = self.model.literal(message)
        return value if isinstance(value, str) else None

    # -- how sure it is an input check ---------------------------------------------------

    def _unsafe_reason(self, node: ast.Assert, function: _Function | None) -> str | None:
        """Why the fix is unsafe; None where it is safe. Under `invariants = "ignore"`
        (the default) an internal invariant or a type-narrowing check is left alone:
        `decide` never gets here for it (see `_invariant`)."""
        reasons = self._unsafe_reasons(node, function)
        if self.invariants == "unsafe":
            return next((reason for reason, _ in reasons), None)
        if _always_false(node.test):
            return ALWAYS_FAILS
        return next((reason for reason, invariant in reasons if not invariant), None)

    def _dispatched_handler(self, name: str) -> bool:
        """Whether a module-level dict display maps an operation to the function `name`
        (ptflops' `ATEN_OPS_MAPPING = {aten.bmm: bmm_flop, ...}`): a dispatch table the
        library calls through. A table keyed by strings (liger-kernel's model types to its
        public `apply_liger_kernel_to_*` functions) names user-facing functions."""
        if self._dispatch_handlers is None:  # read once per file
            self._dispatch_handlers = {
                item.id for statement in self.file.tree.body
                if isinstance(statement, ast.Assign | ast.AnnAssign)
                and isinstance(statement.value, ast.Dict)
                for key, item in zip(statement.value.keys, statement.value.values, strict=True)
                if isinstance(key, ast.Attribute) and isinstance(item, ast.Name)}
        return name in self._dispatch_handlers

    def _invariant(self, node: ast.Assert, function: _Function | None) -> bool:
        """Whether the assert states an internal invariant of the library or narrows a
        type (`assert self._buffer is not None`, a private function's check, a value
        computed in the function): an assert is the right tool there, and under
        `invariants = "ignore"` it is left alone without a word. `assert False` is not
        one: it stays an unsafe fix (`raise AssertionError`)."""
        if self.invariants != "ignore" or _always_false(node.test):
            return False
        return any(invariant for _, invariant in self._unsafe_reasons(node, function))

    def _unsafe_reasons(self, node: ast.Assert,
                        function: _Function | None) -> Iterator[tuple[str, bool]]:
        """Every reason the fix is not safe, in the order they are told, each with
        whether it makes the assert an internal invariant (True) or an uncertain input
        check (False)."""
        if function is None:
            yield "not in a function, so not an input check", True
            return
        if function.nested:
            yield "in a nested function, so not an input check", True
            return
        if _always_false(node.test):
            yield ALWAYS_FAILS, False
        if self.copied_code:
            yield ("code copied from another project, as the module's head or its folder "
                   "says: it keeps that project's form, to be kept in step with it"), True
        if self.deprecated_module:
            # tabm's `tabm_reference.py` (round 37): replaced by the `tabm` package, kept
            # as it was; every one of its 17 converted asserts was read as not worth it
            yield ("the module warns on import that it is deprecated: its API is kept as "
                   "it is, exceptions included, until it goes"), True
        if self.example_code:
            # Left alone like an invariant: every fresh review called the converted
            # asserts of examples pointless, even as unsafe fixes (rounds 8 to 10).
            yield ("example code: its asserts show a reader what holds, and nobody runs an "
                   "example under python -O"), True
        if self.catches_assertion_error:
            yield "this file catches AssertionError elsewhere", False
        owner = f"{function.owner.name}." if function.owner is not None else ""
        if not function.public:
            yield f"{owner}{function.name}() is private: its checks are internal invariants", True
        package = self._private_package()
        if package is not None:
            yield (f"in the package `{package}`, private by its name: not public API, its "
                   "checks are internal invariants"), True
        if function.owner is not None and function.name in TENSOR_SUBCLASS_HOOKS:
            yield (f"{owner}{function.name}() is a protocol hook torch calls with what the "
                   "tensor subclass itself produced: its checks are internal invariants"), True
        if (function.owner is not None and function.name in FX_HANDLERS
                and self._fx_pass(function.owner)):
            yield (f"{owner}{function.name}() handles the nodes of a graph torch.fx walks: "
                   "FX passes its targets and arguments, its checks are internal "
                   "invariants"), True
        if (function.owner is not None and function.name.startswith("on_")
                and self._framework_hooks(function.owner)):
            yield (f"{owner}{function.name}() is a hook the training framework calls with its "
                   "own objects (the trainer, the module): its checks are the framework's "
                   "wiring, not input"), True
        if function.owner is None and _initializes_weights(function.name):
            yield (f"{function.name}() initializes the weights of the package's own modules "
                   "(`model.apply(...)`): its checks are internal invariants"), True
        if function.owner is None and self._dispatched_handler(function.name):
            yield (f"{function.name}() is a handler the module's dispatch table maps an "
                   "operation to: the library calls it with what the operation carries, "
                   "its checks are internal invariants"), True
        if function.owner is not None and self._autograd_function(function.owner):
            yield (f"{owner}{function.name}() is a method of a torch.autograd.Function: "
                   "autograd and the library pass its arguments, its checks are internal "
                   "invariants"), True
        if (function.owner is not None and function.name not in CONSTRUCTION_METHODS
                and _registry_built(function.owner) and self._compares_sizes(node.test)):
            yield (f"{owner}{function.name}() of a registry-built class compares the sizes "
                   "of what the framework hands between stages (`len(x) == "
                   "self.num_levels`): a check of its wiring, not of input"), True
        message = self._message_text(node.msg)
        inputs, defaulted, computed = self._names_read(node, function)
        if message and INVARIANT_MESSAGE.search(message):
            yield "its message calls it an internal invariant, not a check of input", True
        if computed:
            names = ", ".join(f"`{name}`" for name in sorted(computed))
            yield f"reads {names}, computed in the function: an internal invariant", True
        if not inputs and not defaulted:
            yield "reads no parameter of the function: an internal invariant", True
        narrowing = self._narrowing(node)
        narrowed, form = narrowing if narrowing is not None else (None, None)
        if (isinstance(narrowed, ast.Name) and narrowed.id in inputs and form is not None
                and _is_not_none(form) and _may_be_none(function.node, narrowed.id)):
            yield (f"a check on `{narrowed.id}` with no message, where the signature lets "
                   "it be None: written to narrow its type, not to check input"), True
        if isinstance(narrowed, ast.Attribute):
            yield (f"a check on `{ast.unparse(narrowed)}` with no message, as written to "
                   "narrow its type: state handed in, more likely than user input"), True
        indexed = self._dimensions_indexed_next(node) if node.msg is None else None
        if indexed is not None:
            # muon's `assert G.ndim >= 2` before `G.size(-2)` (round 37), llama-models'
            # `assert 0 <= 1 < ndim` before `x.shape[1]` (round 36)
            yield (f"checks how many dimensions `{indexed}` has, with no message, and the "
                   f"lines after it index them: a tensor with too few fails there with an "
                   "IndexError anyway"), True
        if self._debugging_comment(node):
            yield ("a comment calls it a temporary debugging check, to be removed: not an "
                   "input check to keep"), True
        if self._type_checker_comment(node):
            yield ("a comment says the assert is there for the type checker: it narrows a "
                   "type, not a check of input"), True
        if any(NEVER_HAPPENS_COMMENT.search(line) for line in self._comment_lines(node)):
            yield ("a comment says the case cannot happen: an internal invariant, not a "
                   "check of input"), True
        subject, check = narrowed, form
        if (subject is None and node.msg is None and isinstance(node.test, ast.UnaryOp)
                and isinstance(node.test.op, ast.Not)):
            # `assert not isinstance(x, (dict, tuple))` narrows `x` too
            subject, check = self._narrowed_subject(node.test.operand), node.test.operand
        if subject is not None and check is not None:
            narrowing_reason = self._narrowing_reason(subject, check, node, function)
            if narrowing_reason is not None:
                yield narrowing_reason, True
        guard = self._guarded_before(node, function)
        if guard is not None:
            yield (f"the `if` at line {guard} already leaves the function where this check "
                   "would fail: it can never fail"), True
        slot = self._self_slot(node.test, function)
        if slot is not None:
            yield (f"checks whether `{slot}` is set: a slot of the object's own state (the "
                   "parameters only pick it), an invariant of the object, not input"), True
        state = self._state_checked(node, function)
        if state is not None:
            yield (f"checks that `{state}` is set: the state of an object handed in, an "
                   "Optional narrowed for the type checker more likely than user input"), True
        checked = _is_not_none(node.test)
        if (isinstance(checked, ast.Name) and checked.id in inputs
                and self._used_before(checked.id, node, function)):
            yield (f"`{checked.id}` is already used on an earlier line, where None would "
                   "have failed: the check can never fail"), True
        if isinstance(narrowed, ast.Name) and narrowed.id in defaulted:
            yield (f"a check on `{narrowed.id}` with no message, after giving it a default: "
                   "written to narrow its type, not to check input"), True
        if node.msg is None and _checks_for_nan(node.test, self.model):
            # llama-models' `assert not torch.isnan(encoded_patches_proj).any()` (round 36)
            yield ("checks a tensor for NaN or infinity, with no message: a numerical "
                   "sanity check of what the model computed, the kind python -O is meant "
                   "to remove, not a check of input"), True
        if _reads_tensor_values(node.test, self.model):
            yield ("checks tensor values: the raise keeps a device sync that -O removed and "
                   "breaks the torch.compile graph"), False
        validated = self._validated_before(node, function, inputs | defaulted)
        if validated is not None:
            name, line = validated
            yield (f"`{name}` is already checked by the raise at line {line}: the assert "
                   "restates an internal invariant"), True
        updated = self._updated_before(node, function, inputs | defaulted)
        if updated is not None:
            chain, line = updated
            yield (f"checks `{chain}` after the function wrote to it at line {line}: a "
                   "postcondition of its own update, not a check of input"), True
        # Last of the invariants: it reads the whole package (which classes build which),
        # and most asserts it would catch are told apart by a cheaper reason above.
        wiring = self._wiring(node, function, inputs | defaulted)
        if wiring:
            yield wiring, True
        hidden = self._unexported(function)
        if hidden is not None:
            yield (f"{hidden} is not exported by its package's __init__.py: the package's "
                   "own code calls it with what it built, its checks are internal "
                   "invariants"), True
        project = self.file.project
        if project.is_built_distribution():
            yield ("an unpacked sdist or wheel, not the repository: the tests it ships are a "
                   "selection, and tests that expect AssertionError cannot be checked"), False
        elif project.is_distribution() and not project.has_tests():
            yield ("the project ships no tests (an sdist or wheel?): tests elsewhere that "
                   "expect AssertionError cannot be checked"), False
        elif project.is_distribution() and not self._tested(function):
            # onnx2pytorch's sdist ships one import test; the repository's tests expect
            # AssertionError from `Split(...)` and `get_selection(...)` (round 27).
            yield (f"no test of the project names {self._top_name(function)}(): tests that "
                   "would expect its AssertionError are not here to check"), False

    def _top_name(self, function: _Function) -> str:
        """The top-level def or class holding `function`."""
        path = self.model.function_path(function.node)  # the defs and classes around it
        return path[0] if path else function.node.name

    def _tested(self, function: _Function) -> bool:
        """Whether a test of the project names the function or the class holding it."""
        project = self.file.project
        return any(project.derived(TESTED, name) for name in
                   dict.fromkeys((self._top_name(function), function.node.name)))

    def _unexported(self, function: _Function) -> str | None:
        """The top-level def or class holding `function` where the package leaves it out
        of its API (`components.unexported`); None where it is exported or nothing says."""
        top = self._top_name(function)
        module = self.file.module
        if module is None or "." not in module.name:
            return None
        return top if unexported(self.file.project, module.name, top) else None

    def _wiring(self, node: ast.Assert, function: _Function, read: set[str]) -> str | None:
        """Why the assert checks the package's own wiring, where its method's class is an
        inner component of the package (`components.component`: built by the package,
        not exported): in any method but the constructor, a check of whether its
        parameters were passed at all (`assert not (exists(context) ^
        self.cross_attend)`: what its model hands it), and a constructor check of
        parameters every call in the package passes a literal (`MV2Block(..., 1, ...)`).
        None elsewhere: a check of a parameter's value or shape (`x.ndim == 3`,
        `language in self.config.languages`) may check the user's input the model passed
        on, and a constructor check of what a builder passes on from its own caller
        checks that caller's argument."""
        path = self.model.function_path(function.node)
        module = self.file.module
        if function.owner is None or len(path) != 1 or "." not in module.name:
            return None
        project = self.file.project
        found = project.derived(COMPONENT, f"{module.name}.{path[0]}")
        if not found:
            return None
        facts = json.loads(found)
        owner = (f"{path[0]} is an inner component of the package, built by {facts['by']} "
                 "and not exported by its __init__.py")
        if function.name not in CONSTRUCTION_METHODS:
            if not _presence_only(node.test, read, function.node):
                return None
            return f"{owner}: a check of what its model hands it, not of input"
        if function.name == "__init__" and read and read <= set(facts["literal"]):
            names = ", ".join(f"`{name}`" for name in sorted(read))
            return f"{owner}: every call in the package passes {names} a literal"
        if (function.name == "__init__" and read and facts.get("passed")
                and all(_holds_for_call(node.test, read, set(passed["given"]),
                                        set(passed["there"]), function.node)
                        for passed in facts["passed"])):
            # nuwa's `assert not (sparse_3dna_attn and not exists(sparse_3dna_video_shape))`
            # in its inner Transformer: the calls that turn the flag on pass the shape, the
            # others leave the flag off (round 24)
            return (f"{owner}: the check asks only what was passed, and every call in the "
                    "package passes what it asks for: what its builders hand it, not input")
        return None

    def _opened_next(self, node: ast.Assert) -> bool:
        """`assert path.exists()` (`os.path.isfile(path)`, ...) before a statement that
        opens or reads that path (`open(path)`, `path.open()`, `torch.load(path)`), among
        the next few of its block, none of which binds the path anew (torchkbert's
        `sents = []` in between, round 40): that call raises FileNotFoundError naming the
        path already, under -O too."""
        test = node.test
        if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute)):
            return False
        if test.func.attr in PATH_TESTS and not test.args and not test.keywords:
            path = test.func.value  # path.exists()
        elif (test.func.attr in PATH_TESTS and len(test.args) == 1
              and ast.unparse(test.func.value) == "os.path"):
            path = test.args[0]  # os.path.exists(path)
        else:
            return False
        wanted = ast.unparse(path)
        for after in _following_statements(self.model, node)[:DIMENSIONS_LOOKAHEAD]:
            # the statement's own expressions: a `with`'s items, not its body
            heads = (after.items if isinstance(after, (ast.With, ast.AsyncWith))
                     else [after] if not isinstance(
                         after, (ast.If, ast.For, ast.While, ast.Try)) else [])
            for head in heads:
                for call in (n for n in ast.walk(head) if isinstance(n, ast.Call)):
                    func = call.func
                    name = _last_name(func)
                    if (isinstance(func, ast.Attribute) and name in PATH_READS
                            and ast.unparse(func.value) == wanted):
                        return True  # path.open(), path.read_text()
                    if (name in OPENERS and call.args
                            and ast.unparse(call.args[0]) == wanted):
                        return True  # open(path), torch.load(path)
            if any(isinstance(target, (ast.Name, ast.Attribute)) and isinstance(
                    target.ctx, ast.Store) and ast.unparse(target) == wanted
                   for target in ast.walk(after)):
                return False  # the path is another one from here on
        return False

    def _exception_object(self, test: ast.expr) -> str | None:
        """The exception class `test` makes an instance of (`RuntimeError("...")`, a
        builtin exception or a name ending in Error/Exception), else None (round 13:
        mmagic's `assert RuntimeError(...)` in a dataset, a latent bug)."""
        if not isinstance(test, ast.Call):
            return None
        name = _last_name(test.func)
        builtin = self._builtin(test.func)
        if builtin is not None and builtin.startswith("builtins.") and \
                builtin[len("builtins."):] in BUILTIN_EXCEPTIONS:
            return name
        return name if name.endswith(("Error", "Exception")) else None

    def _indexed_next(self, node: ast.Assert) -> bool:
        """`assert "pred_logits" in outputs` before a statement of its block that reads
        `outputs["pred_logits"]` and always runs after it: that subscript raises KeyError
        naming the key already, under -O too (rounds 13-14: rfdetr's criterion, where a
        line computing indices, or an `if` that only raises, may come between)."""
        test = node.test
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1
                and isinstance(test.ops[0], ast.In)):
            return False
        key, container = ast.unparse(test.left), ast.unparse(test.comparators[0])
        for after in _following_statements(self.model, node):
            # Not another assert: the rewrite makes that one an `if`, and a second run
            # would then decide this one otherwise (pfrl's `assert alg in MODELS` before
            # `assert model_type in MODELS[alg]`).
            if isinstance(after, ast.Assert):
                return False
            if isinstance(after, _COMPOUND_STATEMENTS):
                # Passed over where it can only fall through or raise: a `return`,
                # `break` or `continue` in it may leave before the key is read.
                if any(isinstance(inner, (ast.Return, ast.Break, ast.Continue))
                       or (isinstance(inner, ast.Assign) and any(
                           ast.unparse(target) == container for target in inner.targets))
                       for inner in ast.walk(after)):
                    return False
                continue
            if any(isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load)
                   and ast.unparse(n.value) == container and ast.unparse(n.slice) == key
                   and not _under_conditional_expression(n, after)
                   for n in ast.walk(after)):
                return True
            if any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
                   and n.id == container for n in ast.walk(after)):
                return False  # the container is bound anew before any read
        return False

    def _instance_is_class(self, test: ast.expr) -> tuple[str, bool] | None:
        """`model is nn.Module`, alone or `and`-ed: a name compared by `is` or `is not`
        with a class of torch (`torch.nn.Module`, `torch.Tensor`: a capitalised name below
        `torch.`), a builtin type (`int`, `dict`) or a class of the project (torch-npu's
        `assert sub_kernel is not NPUIndexTritonKernel`, round 55); (its source, whether
        it is `is not`), else None. `type(x) is nn.Module` and `x.__class__ is ...`
        compare classes, as meant."""
        parts = test.values if isinstance(test, ast.BoolOp) and \
            isinstance(test.op, ast.And) else [test]
        for part in parts:
            if not (isinstance(part, ast.Compare) and len(part.ops) == 1
                    and isinstance(part.ops[0], (ast.Is, ast.IsNot))):
                continue
            left, right = part.left, part.comparators[0]
            if not isinstance(left, ast.Name) or self.model.qualified_name(left):
                continue  # `cls is nn.Module` may hold a class; an import is one
            if left.id in ("cls", "klass", "class_", "kind", "type_") or \
                    "class" in left.id.lower() or "type" in left.id.lower():
                continue
            if self._names_a_class(right):
                return ast.unparse(part), isinstance(part.ops[0], ast.IsNot)
        return None

    def _names_a_class(self, node: ast.expr) -> bool:
        qualified = self.model.qualified_name(node) or ""
        last = qualified.rsplit(".", 1)[-1]
        if (qualified.startswith("torch.") and last[:1].isupper()) or \
                qualified in BUILTIN_TYPES:
            return True
        if qualified and self.file.project.class_facts(qualified) is not None:
            return True
        bindings = self.model.bindings(node) if isinstance(node, ast.Name) else []
        return bool(bindings) and all(binding.kind is BindingKind.CLASS
                                      for binding in bindings)

    def _narrows_optional_local(self, node: ast.Assert) -> bool:
        """`assert ids is not None`, with no message, where `ids` is a local the function
        annotates as optional (`ids: list | None = [] if key else None`): it tells the type
        checker what the code around it already ensures (torchdcm's `individual_ids`,
        round 49, appended to only under the same `if key:` that made it a list); a raise
        there would be dead code that reads as an input error."""
        test = node.test
        if not (node.msg is None and isinstance(test, ast.Compare) and len(test.ops) == 1
                and isinstance(test.ops[0], ast.IsNot) and isinstance(test.left, ast.Name)
                and isinstance(test.comparators[0], ast.Constant)
                and test.comparators[0].value is None):
            return False
        function = self.model.enclosing_function(node)
        bindings = self.model.bindings(test.left)
        return function is not None and bool(bindings) and all(
            binding.kind is not BindingKind.PARAMETER
            and self.model.enclosing_function(binding.node) is function
            for binding in bindings) and any(
            binding.annotation is not None and _optional(binding.annotation)
            for binding in bindings)

    def _unreachable(self, node: ast.Assert) -> bool:
        """Whether a statement before the assert in its block always leaves it: a `raise`,
        `return`, `break`, `continue` or `assert False` (fuzzytorch's stub `assert 0, "not
        implemented"` before the check it would make, round 47): the assert never runs,
        and a raise in its place would be dead code too."""
        found = self.model.block_of(node)
        if found is None:
            return False
        block, index = found
        return any(isinstance(earlier, (ast.Raise, ast.Return, ast.Break, ast.Continue))
                   or (isinstance(earlier, ast.Assert) and _always_false(earlier.test))
                   for earlier in block[:index])

    def _raised_next(self, node: ast.Assert) -> bool:
        """`assert mode in MODES` right before `if mode not in MODES: ... raise` (torchok's
        DiceLoss, round 41): the `if` raises on exactly the assert's failure, with the
        project's own message, under -O too; a converted assert would only repeat it
        with a blander message."""
        after = _next_statement(self.model, node)
        return (isinstance(after, ast.If) and not after.orelse and bool(after.body)
                and isinstance(after.body[-1], ast.Raise)
                and ast.unparse(after.test) in _failure_spellings(node.test))

    def _falls_back_next(self, node: ast.Assert) -> bool:
        """`assert not self.tensor_exists(name), "..."` right before `if
        self.tensor_exists(name): return` (executorch's NXP model builder, round 53): the
        `if` is the author's fallback for `python -O`, which skips the case the assert
        stops in a debug run; a raise in the assert's place would make that fallback dead
        and fail the optimized runs it was written for."""
        after = _next_statement(self.model, node)
        return (isinstance(after, ast.If) and not after.orelse and bool(after.body)
                and isinstance(after.body[-1], (ast.Return, ast.Continue, ast.Break))
                and ast.unparse(after.test) in _failure_spellings(node.test))

    def _dispatched_next(self, node: ast.Assert) -> bool:
        """`assert method in ["moving_avg", "dft"]` right before an `if method == ...:` /
        `elif ...` chain on the same name whose final `else:` raises: that raise already
        rejects every other value, under -O too (round 15: pypots' TimeMixer)."""
        test = node.test
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1
                and isinstance(test.ops[0], ast.In)
                and isinstance(test.comparators[0], (ast.List, ast.Tuple, ast.Set))):
            return False
        subject = ast.unparse(test.left)
        branch = _next_statement(self.model, node)
        if not isinstance(branch, ast.If):
            return False
        while True:
            if subject not in {ast.unparse(n) for n in ast.walk(branch.test)}:
                return False
            if len(branch.orelse) == 1 and isinstance(branch.orelse[0], ast.If):
                branch = branch.orelse[0]
                continue
            return any(isinstance(statement, ast.Raise) for statement in branch.orelse)

    def _type_checker_comment(self, node: ast.Assert) -> bool:
        """A comment on the assert's first or last line, or alone on the line above it,
        that names the type checker (`# For type checking`, `# mypy`, `# narrow`)."""
        return any(TYPE_CHECKER_COMMENT.search(line) for line in self._comment_lines(node))

    def _dimensions_indexed_next(self, node: ast.Assert) -> str | None:
        """The tensor whose number of dimensions the assert compares (`x.ndim`, `x.dim()`,
        `len(x.shape)`, or a name the function binds to one of them), where one of the
        next few statements of its block indexes a dimension of it (`x.size(-2)`,
        `x.shape[1]`); None elsewhere."""
        tensors = {ast.unparse(tensor) for operand in _compared(node.test)
                   for tensor in [self._dimensions_of(operand)] if tensor is not None}
        if not tensors:
            return None
        for statement in _following_statements(self.model, node)[:DIMENSIONS_LOOKAHEAD]:
            for inner in ast.walk(statement):
                tensor = _indexed_dimension(inner)
                if tensor is not None and ast.unparse(tensor) in tensors:
                    return ast.unparse(tensor)
        return None

    def _dimensions_of(self, operand: ast.expr, hops: int = 1) -> ast.expr | None:
        """The tensor `operand` counts the dimensions of, directly or through one
        assignment of the function (`ndim = x.ndim`)."""
        if isinstance(operand, ast.Attribute) and operand.attr == "ndim":
            return operand.value
        if isinstance(operand, ast.Call) and isinstance(operand.func, ast.Attribute) and \
                operand.func.attr == "dim" and not operand.args:
            return operand.func.value
        if isinstance(operand, ast.Call) and isinstance(operand.func, ast.Name) and \
                operand.func.id == "len" and len(operand.args) == 1:
            counted = operand.args[0]
            if isinstance(counted, ast.Attribute) and counted.attr == "shape":
                return counted.value
        if isinstance(operand, ast.Name) and hops:
            bindings = self.model.bindings(operand)
            if len(bindings) == 1 and bindings[0].kind is BindingKind.ASSIGNMENT and \
                    bindings[0].value is not None:
                return self._dimensions_of(bindings[0].value, hops - 1)
        return None

    def _debugging_comment(self, node: ast.Assert) -> bool:
        """A comment there that calls the asserts temporary debugging (megatron-core's
        `# todo: @lmcafee, remove these asserts?`, round 18): made to be deleted, not
        hardened into raises."""
        return any(DEBUGGING_COMMENT.search(line) for line in self._comment_lines(node))

    def _comment_lines(self, node: ast.Assert) -> list[str]:
        """The assert's first and last lines, and the line above it where that is a
        comment alone."""
        lines = self.file.text.splitlines()
        end = node.end_lineno or node.lineno
        candidates = [lines[number - 1] for number in {node.lineno, end}
                      if 0 < number <= len(lines)]
        if node.lineno >= 2 and lines[node.lineno - 2].lstrip().startswith("#"):
            candidates.append(lines[node.lineno - 2])
        return candidates

    def _narrowing_reason(self, narrowed: ast.expr, form: ast.expr, node: ast.Assert,
                          function: _Function) -> str | None:
        """Why a message-less narrowing assert (`isinstance(x, T)`, `x is not None`) can
        never fail, from what the code around it shows:
        - the function is registered for the class it checks (`@registry.register(A, B)`
          over `assert isinstance(module, (A, B))`): the dispatcher only passes those;
        - `x` is a local read off a parameter (`w = wrapper.lora_A[name].weight`): state
          handed in, as the attribute itself would be;
        - the assert sits in a branch (or the `else`) of an `if` on the type of another
          parameter (`if isinstance(space, spaces.Tuple): assert isinstance(raw_data,
          tuple)`): the two values mirror each other, the assert tells the type checker."""
        if not isinstance(narrowed, ast.Name):
            return None
        classes = (form.args[1] if isinstance(form, ast.Call) and len(form.args) == 2
                   and self._builtin(form.func) == "builtins.isinstance" else None)
        if classes is not None:
            wanted = {ast.unparse(c) for c in (
                classes.elts if isinstance(classes, ast.Tuple) else [classes])}
            for decorator in function.node.decorator_list:
                if (isinstance(decorator, ast.Call)
                        and wanted <= {ast.unparse(arg) for arg in decorator.args}):
                    return (f"{function.name}() is registered for {', '.join(sorted(wanted))}"
                            f" (`@{ast.unparse(decorator.func)}`): the dispatcher only "
                            f"passes those, the check on `{narrowed.id}` narrows its type")
        bindings = self.model.bindings(narrowed)
        if (len(bindings) == 1 and bindings[0].scope is function.scope
                and bindings[0].kind is BindingKind.ASSIGNMENT
                and isinstance(bindings[0].value, (ast.Attribute, ast.Subscript))):
            root: ast.expr = bindings[0].value
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                root = root.value
            if isinstance(root, ast.Name) and any(
                    b.kind is BindingKind.PARAMETER and b.scope is function.scope
                    for b in self.model.bindings(root)):
                return (f"a check on `{narrowed.id}` with no message, read off "
                        f"`{ast.unparse(bindings[0].value)}`: state handed in, narrowed for "
                        "the type checker")
        if self._is_type_check(node.test):
            parameters = {a.arg for a in (*function.node.args.posonlyargs,
                                          *function.node.args.args,
                                          *function.node.args.kwonlyargs)}
            for block in self.model.ancestors(node):
                if isinstance(block, _FUNCTIONS):
                    break
                if isinstance(block, ast.If) and self._is_type_check(block.test):
                    other = {name.id for name in _loads(block.test)} & parameters
                    if other - {narrowed.id}:
                        return (f"a type check on `{narrowed.id}` with no message, in a "
                                f"branch chosen by the type of `{sorted(other)[0]}`: the "
                                "two mirror each other, it narrows for the type checker")
        return None

    def _self_slot(self, test: ast.expr, function: _Function) -> str | None:
        """`self.tensors[chunk][idx]` in `assert self.tensors[chunk][idx] is None` (or `is
        not None`) outside the constructor: whether the object's own slot is filled."""
        if not _is_none_test(test) or function.name in CONSTRUCTION_METHODS:
            return None
        assert isinstance(test, ast.Compare)
        subject = test.left
        root: ast.expr = subject
        while isinstance(root, ast.Attribute | ast.Subscript):
            root = root.value
        self_parameter = self._self_parameter(function)
        if (isinstance(subject, ast.Subscript) and isinstance(root, ast.Name)
                and self_parameter is not None and root.id == self_parameter):
            return ast.unparse(subject)
        return None

    def _held_by_branch(self, node: ast.Assert) -> bool:
        """Whether an `if` around the assert, in its function, already decides the
        condition: the assert in the `else` of an `if` that tests exactly its failure
        (careamics' `if max_val is None: ... else: assert max_val is not None`, round
        25), or in the body of an `if` that tests the condition itself, or `and`s it with
        others (torchmanager-diffusion's `if self.mlp is not None and time_emb is not
        None: assert time_emb is not None`, round 41), or in the `else` of an `if` one of
        whose `or`ed tests is exactly its failure (atorch's `if ... or rank != 0: ...
        else: assert rank == 0`, round 43), with nothing before it in that branch
        assigning a name the condition reads."""
        failures = _failure_spellings(node.test)
        condition = ast.unparse(node.test)
        read = {name.id for name in ast.walk(node.test) if isinstance(name, ast.Name)}
        child: ast.AST = node
        for ancestor in self.model.ancestors(node):
            if isinstance(ancestor, (*_FUNCTIONS, ast.ClassDef, ast.Lambda)):
                return False
            if isinstance(ancestor, ast.If):
                branch = (ancestor.orelse if child in ancestor.orelse
                          else ancestor.body if child in ancestor.body else None)
                # in the `else` of `if a or b`, every one of them failed; in the body of
                # `if a and b`, every one of them held
                if branch is not None and (
                        (branch is ancestor.orelse
                         and _operands(ancestor.test, ast.Or) & failures)
                        or (branch is ancestor.body
                            and condition in _operands(ancestor.test, ast.And))):
                    before = branch[:branch.index(child)]  # type: ignore[arg-type]
                    return not any(
                        isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store)
                        and name.id in read
                        for statement in before for name in ast.walk(statement))
            child = ancestor
        return False

    def _cannot_fail(self, test: ast.expr) -> bool:
        """`s.index(x) >= 0` (`index` raises where it finds nothing, else returns a
        position), `len(x) >= 0`, `0 <= len(x)`: true whenever it is evaluated."""
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
            return False
        size, zero = test.left, test.comparators[0]
        if isinstance(test.ops[0], ast.LtE):
            size, zero = zero, size
        elif not isinstance(test.ops[0], ast.GtE):
            return False
        if not (isinstance(zero, ast.Constant) and type(zero.value) is int
                and zero.value == 0 and isinstance(size, ast.Call)):
            return False
        if isinstance(size.func, ast.Attribute):
            return size.func.attr == "index"
        return len(size.args) == 1 and self._builtin(size.func) == "builtins.len"

    def _checked_by_the_if(self, node: ast.Assert) -> bool:
        """`if self._check_bijective_x(x, context): assert isinstance(x, BijectiveTensor)`
        (flowtorch, round 31): the assert opens the body of an `if` whose test calls a
        function of this module that returns an `isinstance` check of the same argument
        against the same class, `and`-ed with others. It cannot fail; it tells the type
        checker what the helper found."""
        test = node.test
        if not (node.msg is None and isinstance(test, ast.Call) and len(test.args) == 2
                and self._builtin(test.func) == "builtins.isinstance"
                and isinstance(test.args[0], ast.Name)):
            return False
        parent = self.model.parent(node)
        if not (isinstance(parent, ast.If) and parent.body and parent.body[0] is node
                and isinstance(parent.test, ast.Call)):
            return False
        call, checked = parent.test, test.args[0].id
        position = next((index for index, argument in enumerate(call.args)
                         if isinstance(argument, ast.Name) and argument.id == checked), None)
        name = _last_name(call.func)
        if position is None or not name:
            return False
        for helper in nodes_of(self.file.tree, ast.FunctionDef):
            if helper.name != name:
                continue
            parameters = [a.arg for a in (*helper.args.posonlyargs, *helper.args.args)]
            if isinstance(call.func, ast.Attribute) and parameters[:1] in (["self"], ["cls"]):
                parameters = parameters[1:]
            if position >= len(parameters):
                continue
            returned = [statement.value for statement in helper.body
                        if isinstance(statement, ast.Return) and statement.value is not None]
            if len(returned) != 1:
                continue
            value = returned[0]
            parts = value.values if isinstance(value, ast.BoolOp) and isinstance(
                value.op, ast.And) else [value]
            wanted = ast.dump(test.args[1])
            if any(isinstance(part, ast.Call) and len(part.args) == 2
                   and self._builtin(part.func) == "builtins.isinstance"
                   and isinstance(part.args[0], ast.Name)
                   and part.args[0].id == parameters[position]
                   and ast.dump(part.args[1]) == wanted for part in parts):
                return True
        return False

    def _private_package(self) -> str | None:
        """The package above the module that its name makes internal (`internal` /
        `_internal`, fairscale's `internal/containers.py`), dotted from the top; None
        elsewhere. Any other leading-underscore package does not count (captum's
        `attr/_core/` defines the classes `captum.attr` exports), nor does the module's
        own name (a public class is often defined in a `_module.py` its package exports)."""
        module = self.file.module
        parts = module.name.split(".")
        packages = parts if module.is_package else parts[:-1]
        for index, part in enumerate(packages):
            if part in PRIVATE_PACKAGES:
                return ".".join(parts[:index + 1])
        return None

    def _autograd_function(self, owner: ast.ClassDef) -> bool:
        """Whether the class derives from `torch.autograd.Function`: directly, or through
        project classes (`Project.ancestors`)."""
        return any(name in AUTOGRAD_FUNCTIONS for name in self._base_names(owner))

    def _fx_pass(self, owner: ast.ClassDef) -> bool:
        """Whether the class derives from torch.fx's `Interpreter`, `Transformer` or
        `Tracer` (directly, or through project classes)."""
        for name in self._base_names(owner):
            parts = name.split(".")
            if parts[:2] == ["torch", "fx"] and parts[-1] in FX_PASS_BASES:
                return True
        return False

    def _framework_hooks(self, owner: ast.ClassDef) -> bool:
        """Whether the class derives from a class whose `on_*` hooks a training framework
        calls (Lightning's `Callback`, `LightningModule`; transformers' `TrainerCallback`)."""
        for name in self._base_names(owner):
            top, _, rest = name.partition(".")
            if rest and rest.rsplit(".", 1)[-1] in FRAMEWORK_HOOK_BASES.get(top, ()):
                return True
        return False

    def _base_names(self, owner: ast.ClassDef) -> Iterator[str]:
        """The qualified names of the class's bases, and of their ancestors among the
        project's classes (`Project.ancestors`)."""
        project = self.file.project
        for base in owner.bases:
            qualified = self.model.qualified_name(base)
            if qualified is None:
                continue
            yield qualified
            yield from (name for name in project.ancestors(project.canonical(qualified)
                                                           or qualified) if name is not None)

    def _compares_sizes(self, test: ast.expr) -> bool:
        """`len(x) == self.num_levels`, `len(a) == len(b)`, `x.dim() == 4`, `len(x) >= n`
        (and `and`s of them): a comparison of a length or a number of dimensions with
        other lengths, counts on `self`, constants or plain names."""
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
            return all(self._compares_sizes(value) for value in test.values)
        if not isinstance(test, ast.Compare) or not all(
                isinstance(op, (ast.Eq, ast.NotEq, *_ORDERINGS)) for op in test.ops):
            return False
        operands = [test.left, *test.comparators]
        return any(self._size(operand) for operand in operands) and all(
            self._size(operand) or _count(operand) for operand in operands)

    def _size(self, expr: ast.expr) -> bool:
        """`len(x)`, `x.dim()`, `x.ndim`."""
        if isinstance(expr, ast.Attribute):
            return expr.attr == "ndim"
        if not isinstance(expr, ast.Call) or expr.keywords:
            return False
        if isinstance(expr.func, ast.Attribute):
            return expr.func.attr == "dim" and not expr.args
        return len(expr.args) == 1 and self._builtin(expr.func) == "builtins.len"

    def _always_before(self, node: ast.Assert, function: _Function) -> Iterator[ast.stmt]:
        """The statements that always run before the assert in its function: the earlier
        statements of its block and of each block around it, up to the function's body."""
        child: ast.AST | None = node
        while child is not None and child is not function.node:
            found = self.model.block_of(child)
            if found is not None and not isinstance(child, ast.ExceptHandler):
                block, index = found  # an earlier except clause never runs before
                yield from block[:index]
            child = self.model.parent(child)

    def _guarded_before(self, node: ast.Assert, function: _Function) -> int | None:
        """The line of an `if` that always runs before the assert, tests exactly the
        assert's failure (`if len(segments) == 0:` before `assert segments`) and leaves
        (`return`, `raise`, `continue`, `break` at the end of its body, no `else`):
        whisperx's VAD, round 16. None where there is no such `if`."""
        failures = _failure_spellings(node.test)
        if not failures:
            return None
        for statement in self._always_before(node, function):
            if (isinstance(statement, ast.If) and not statement.orelse and statement.body
                    and isinstance(statement.body[-1], (ast.Return, ast.Raise, ast.Continue,
                                                        ast.Break))
                    and ast.unparse(statement.test) in failures):
                return statement.lineno
        return None

    def _used_before(self, name: str, node: ast.Assert, function: _Function) -> bool:
        """Whether a statement that always runs before the assert (an earlier simple
        statement of its block, or of a block around it) reads an attribute of `name` or
        subscripts it (`x.shape[1]`), outside a conditional expression."""
        return any(isinstance(statement, _SIMPLE_STATEMENTS) and _dereferences(statement, name)
                   for statement in self._always_before(node, function))

    def _input_derived(self, bindings: list[Binding], node: ast.Assert,
                       function: _Function, depth: int = 0) -> bool:
        """A local bound once before the assert from the caller's values only: `n =
        len(low)` (parameters, constants and builtins read), or the target of a `for`
        directly over a parameter (or `zip`/`enumerate` of parameters)."""
        loops = [b for b in bindings if b.kind is BindingKind.LOOP
                 and any(block is b.statement for block in _bodies_around(self.model, node))]
        if loops:
            # The innermost `for` around the assert that binds the name, and no other
            # binding of it in that loop.
            binding = max(loops, key=lambda b: b.position)
            inside = set(map(id, ast.walk(binding.statement)))  # type: ignore[arg-type]
            if any(b is not binding and id(b.node) in inside for b in bindings):
                return False
        else:
            # The one binding before the assert, where no later one can reach it through a
            # loop (gsplat's `C = viewmats.shape[-3]` at the top, rebound in a branch below)
            position = (node.lineno, node.col_offset)
            before = [b for b in bindings if b.position < position]
            around = self._loops(node, function)
            if len(before) != 1 or any(self._loops(b, function) & around
                                       for b in bindings if b is not before[0]):
                return False
            (binding,) = before
        statement = binding.statement
        if binding.position >= (node.lineno, node.col_offset):
            return False
        if isinstance(statement, ast.For) and binding.kind is BindingKind.LOOP:
            if not all(isinstance(target, ast.Name) for target in (
                    statement.target.elts if isinstance(statement.target, ast.Tuple)
                    else [statement.target])):
                return False
            iterated = statement.iter
            if (isinstance(iterated, ast.Call) and not iterated.keywords
                    and self._builtin(iterated.func) in ("builtins.zip", "builtins.enumerate")):
                sources = iterated.args
            else:
                sources = [iterated]
            return bool(sources) and all(
                isinstance(source, ast.Name) and self._is_input(source, node, function)
                for source in sources)
        if _unpacking(binding) and isinstance(statement, ast.Assign):
            # `height, width = image_size`: the parts of what the caller passed
            return self._from_inputs(statement.value, node, function, depth)
        if not _plain_assignment(binding):
            return False
        assert binding.value is not None  # a plain assignment has its value
        return self._from_inputs(binding.value, node, function, depth)

    def _from_inputs(self, value: ast.expr, node: ast.Assert, function: _Function,
                     depth: int = 0) -> bool:
        """Whether `value` is made of the caller's values only: parameters still as
        passed, constants, subscripts and attributes of them, builtin calls."""
        calls = {id(inner.func) for inner in ast.walk(value) if isinstance(inner, ast.Call)}
        read = False  # `J = list()` holds no input: what the function then adds to it
        for inner in ast.walk(value):
            # Arithmetic makes a new value (`y = x * factor`): a check of it is one of
            # the function's own results, an invariant.
            if isinstance(inner, ast.UnaryOp) and isinstance(inner.op, (ast.USub, ast.UAdd)) \
                    and isinstance(inner.operand, ast.Constant):
                continue  # `x.shape[:-2]`: a negative index, no arithmetic
            if isinstance(inner, (ast.USub, ast.UAdd)):
                continue
            if not isinstance(inner, _INPUT_EXPRESSIONS + _DEFAULTING):
                return False
            if isinstance(inner, ast.Compare) and not all(
                    isinstance(op, _DEFAULTING) for op in inner.ops):
                return False  # `x > 0` computes a result; `"k" in config` picks a default
            if isinstance(inner, ast.Call) and not (
                    isinstance(inner.func, ast.Name)
                    and (self._builtin(inner.func) or "").startswith("builtins.")) and not (
                    isinstance(inner.func, ast.Attribute) and inner.func.attr in _READING_METHODS):
                return False
            if isinstance(inner, ast.Name) and id(inner) not in calls:
                found = self.model.bindings(inner)
                if found and found[0].scope is function.scope:
                    # a parameter as passed, or a local made of them (`num_batch_dims =
                    # len(batch_dims)`, `batch_dims = means.shape[:-2]`), two steps deep
                    if not self._is_input(inner, node, function) and (
                            depth >= 2 or inner.id == self._self_parameter(function)
                            or any(b.kind is BindingKind.PARAMETER for b in found)
                            or not self._input_derived(found, node, function, depth + 1)):
                        return False
                    read = True
        return read

    def _fields_from_inputs(self, node: ast.Assert, function: _Function,
                            self_parameter: str) -> bool:
        """`self.low = bounds[0]` ... `assert self.low >= 1` in `__init__`: every field of
        `self` the condition reads is assigned only from the caller's values before the
        assert (and nowhere after it, or by augmented assignment, in the function)."""
        fields = {inner.attr for inner in ast.walk(node.test)
                  if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name)
                  and inner.value.id == self_parameter}
        if not fields:
            return False
        assigned: dict[str, list[ast.expr]] = {field: [] for field in fields}
        for statement in ast.walk(function.node):
            if isinstance(statement, ast.AugAssign | ast.AnnAssign):
                targets = [statement.target]
            elif isinstance(statement, ast.Assign):
                targets = statement.targets
            else:
                continue
            for target in targets:
                if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                        and target.value.id == self_parameter and target.attr in fields):
                    if (isinstance(statement, ast.AugAssign) or statement.value is None
                            or statement.lineno >= node.lineno):
                        return False
                    assigned[target.attr].append(statement.value)
        return all(values and all(self._from_inputs(value, node, function)
                                  for value in values)
                   for values in assigned.values())

    def _is_input(self, name: ast.Name, node: ast.Assert, function: _Function) -> bool:
        """A parameter (not `self`) still holding what the caller passed at the assert."""
        bindings = self.model.bindings(name)
        return (bool(bindings) and bindings[0].scope is function.scope
                and name.id != self._self_parameter(function)
                and any(b.kind is BindingKind.PARAMETER for b in bindings)
                and self._parameter_state(bindings, node, function) == "input")

    def _validated_before(self, node: ast.Assert, function: _Function,
                          names: set[str]) -> tuple[str, int] | None:
        """A parameter the assert reads that an earlier `if ...: raise` of the function
        already checks, with that `if`'s line."""
        names = names - {self._self_parameter(function)}
        if not names:
            return None
        for block in _statements_of(function.node):
            if (isinstance(block, ast.If) and block.lineno < node.lineno
                    and any(isinstance(statement, ast.Raise) for statement in block.body)):
                checked = {name.id for name in _loads(block.test)} & names
                if checked:
                    return min(checked), block.lineno
        return None

    def _updated_before(self, node: ast.Assert, function: _Function,
                        names: set[str]) -> tuple[str, int] | None:
        """(chain, line) where a statement that always runs before the assert (an earlier
        statement of its block, or of a block around it: not one in an `if` beside it)
        assigned into an attribute or item of a parameter (`states.tensor[..., 1] = ...`),
        and the assert reads that attribute (`states.tensor.shape`): it checks the
        function's own update."""
        names = names - {self._self_parameter(function)}
        if not names:
            return None
        written: dict[str, int] = {}
        for statement in self._always_before(node, function):
            targets = (statement.targets if isinstance(statement, ast.Assign)
                       else [statement.target] if isinstance(statement, (ast.AugAssign,
                                                                         ast.AnnAssign))
                       else [])
            for target in targets:
                while isinstance(target, ast.Subscript):
                    target = target.value
                if (isinstance(target, ast.Attribute) and isinstance(_root(target), ast.Name)
                        and _root(target).id in names):
                    written.setdefault(ast.unparse(target), statement.lineno)
        if not written:
            return None
        for expression in ast.walk(node.test):
            if isinstance(expression, ast.Attribute):
                chain = ast.unparse(expression)
                if chain in written:
                    return chain, written[chain]
        return None

    def _names_read(
        self, node: ast.Assert, function: _Function
    ) -> tuple[set[str], set[str], set[str]]:
        """(parameters the condition reads as passed in, parameters it reads that may hold
        the default the function gave them, other local names it reads)."""
        scope = function.scope
        self_parameter = self._self_parameter(function)
        inputs: set[str] = set()
        defaulted: set[str] = set()
        computed: set[str] = set()
        for name in _loads(node.test):
            if name.id in scope.global_names or name.id in scope.nonlocal_names:
                computed.add(name.id)  # state this function writes elsewhere
                continue
            bindings = self.model.bindings(name)
            if not bindings or bindings[0].scope is not scope:
                continue  # a global, a builtin, or a name bound inside the condition
            if name.id == self_parameter:
                if (function.name in POST_INIT_METHODS
                        or (function.name == "__init__" and self._fields_from_inputs(
                            node, function, name.id))):
                    inputs.add(name.id)  # the fields the constructor just stored
                continue
            {"input": inputs, "defaulted": defaulted, "computed": computed}[
                self._parameter_state(bindings, node, function)].add(name.id)
        return inputs, defaulted, computed

    def _state_checked(self, node: ast.Assert, function: _Function) -> str | None:
        """`state.model` in `assert state.model is not None[, message]`: an attribute of a
        parameter (not of a configuration, `cfg.device`, whose fields the user chose; not a
        field `self.x` that `__post_init__` validates)."""
        subject = _is_not_none(node.test)
        if not isinstance(subject, ast.Attribute):
            return None
        root = subject
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            root = root.value
        if (not isinstance(root, ast.Name) or root.id == self._self_parameter(function)
                or CONFIG_PARAMETER.search(root.id)):
            return None
        bindings = self.model.bindings(root)
        if not bindings or bindings[0].scope is not function.scope:
            return None
        if not any(binding.kind is BindingKind.PARAMETER for binding in bindings):
            return None
        return ast.unparse(subject)

    def _parameter_state(self, bindings: list[Binding], node: ast.Assert,
                         function: _Function) -> str:
        """"input": a parameter still holding what the caller passed where the assert
        reads it; "defaulted": that, or the default the body gave it; else "computed"."""
        if not any(b.kind is BindingKind.PARAMETER for b in bindings):
            return "input" if self._input_derived(bindings, node, function) else "computed"
        position = (node.lineno, node.col_offset)
        loops = self._loops(node, function)
        state = "input"
        for binding in bindings:
            if binding.kind is BindingKind.PARAMETER or not (
                    binding.position < position or self._loops(binding, function) & loops):
                continue
            if not loops and self._other_branch(binding, node):
                continue  # `if ...: x = (x,)` / `else: assert 0 not in x`: never reaches it
            if not self._gives_default(binding, node, function):
                return "computed"
            state = "defaulted"
        return state

    def _other_branch(self, binding: Binding, node: ast.Assert) -> bool:
        """Whether the binding is in the other branch of an `if` around the assert (the
        `body` where the assert is in the `orelse`, or the other way round)."""
        statement = binding.statement
        if statement is None:
            return False
        child: ast.AST = node
        for ancestor in self.model.ancestors(node):
            if isinstance(ancestor, _FUNCTIONS):
                return False
            if isinstance(ancestor, ast.If):
                in_body = any(child is inner for inner in ancestor.body)
                other = ancestor.orelse if in_body else ancestor.body
                if any(inner is statement for branch in other for inner in ast.walk(branch)):
                    return True
            child = ancestor
        return False

    def _loops(self, node: ast.Assert | Binding, function: _Function) -> set[int]:
        """The loops of the function around the assert, or around (or binding) a name."""
        start: ast.AST | None = node.statement if isinstance(node, Binding) else node
        if start is None:
            return set()
        found = {id(start)} if isinstance(start, _LOOPS) else set()
        for ancestor in self.model.ancestors(start):
            if ancestor is function.node:
                break
            if isinstance(ancestor, _LOOPS):
                found.add(id(ancestor))
        return found

    def _gives_default(self, binding: Binding, node: ast.Assert, function: _Function) -> bool:
        """`if config is None: config = DefaultConfig()`: the parameter's default, given
        in the body (the assignment directly in the `if`, the default reading no local
        variable but parameters that are never reassigned), and the assert is not in that
        `if` (where it would check the default, not the input). The default may read
        another parameter given its default so (`_defaulting`)."""
        if not self._defaulting(binding):
            return False
        guard = self.model.parent(binding.statement)
        if any(block is guard for block in _bodies_around(self.model, node)):
            return False
        for name in _loads(binding.value):
            found = self.model.bindings(name)
            if (found and found[0].scope is function.scope
                    and any(b.kind is not BindingKind.PARAMETER
                            and (name.id == binding.name or not self._defaulting(b))
                            for b in found)):
                return False
        return True

    def _defaulting(self, binding: Binding) -> bool:
        """Whether the binding gives a parameter its default, alone in the body of an `if
        <name> is None:` (`win_length = n_fft` before `hop_length = int(win_length //
        4)`: voicefixer's stft, round 21): a parameter given so still holds the caller's
        value or one made of the caller's values."""
        if not _plain_assignment(binding) or binding.statement is None:
            return False
        guard = self.model.parent(binding.statement)
        return (isinstance(guard, ast.If) and any(s is binding.statement for s in guard.body)
                and _tests_missing(guard.test, binding.name))

    def _self_parameter(self, function: _Function) -> str | None:
        if function.owner is None or any(
            self._builtin(d) == "builtins.staticmethod"
            for d in function.node.decorator_list
        ):
            return None
        positional = [*function.node.args.posonlyargs, *function.node.args.args]
        return positional[0].arg if positional else None

    def _is_type_check(self, test: ast.expr) -> bool:
        """`isinstance(...)`, `not issubclass(...)`, `callable(f)`, `type(x) is float`,
        and `and`/`or` of only such checks (`hasattr(...)` among them too)."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self._is_type_check(test.operand)
        if isinstance(test, ast.BoolOp):
            # `isinstance(f, int) or hasattr(f, "__iter__")`: a duck-typed type check;
            # `x is None or isinstance(x, int)`: an optional one (round 23: bindsnet)
            checks = [value for value in test.values
                      if not self._is_hasattr(value) and not _is_none_test(value)]
            return bool(checks) and all(self._is_type_check(value) for value in checks)
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and \
                isinstance(test.ops[0], ast.Eq | ast.Is) and \
                isinstance(test.comparators[0], ast.Constant) and \
                test.comparators[0].value is True:
            return self._is_type_check(test.left)  # `isinstance(m, nn.Module) == True`
        if isinstance(test, ast.Compare):
            return (len(test.ops) == 1 and isinstance(test.ops[0], _TYPE_COMPARISONS)
                    and isinstance(test.left, ast.Call) and len(test.left.args) == 1
                    and not test.left.keywords
                    and self._builtin(test.left.func) == "builtins.type")
        if isinstance(test, ast.Call) and self._builtin(test.func) in ("builtins.all",
                                                                       "builtins.any") \
                and len(test.args) == 1 and isinstance(test.args[0], ast.GeneratorExp
                                                                  | ast.ListComp):
            # `all(isinstance(s, AxisSemantics) for s in semantics)`: uni-pytorch, round 47
            return self._is_type_check(test.args[0].elt)
        return isinstance(test, ast.Call) and self._builtin(test.func) in TYPE_CHECK_FUNCTIONS

    def _is_path_check(self, test: ast.expr) -> bool:
        """`os.path.isfile(p)`, `os.path.exists(p)`, `os.path.isdir(p)`, `p.exists()`,
        `Path(p).is_file()`: a missing file, for which Python raises FileNotFoundError
        (round 13: axolotl's `assert os.path.isfile(vocab_file)` became `ValueError`)."""
        if not isinstance(test, ast.Call) or not isinstance(test.func, ast.Attribute):
            return False
        if self.model.qualified_name(test.func) in OS_PATH_CHECKS:
            return len(test.args) == 1
        return test.func.attr in PATH_METHOD_CHECKS and not test.args and not test.keywords

    def _is_hasattr(self, test: ast.expr) -> bool:
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self._is_hasattr(test.operand)
        return isinstance(test, ast.Call) and self._builtin(test.func) == "builtins.hasattr"

    def _is_index_check(self, test: ast.expr, function: _Function | None) -> bool:
        """`idx < len(self.files)` in `__getitem__(self, idx)`: an index out of range."""
        if function is None or function.name != "__getitem__" or function.owner is None:
            return False
        positional = [*function.node.args.posonlyargs, *function.node.args.args]
        if len(positional) < 2:
            return False
        index = positional[1].arg
        comparisons = [test] if not (isinstance(test, ast.BoolOp)
                                     and isinstance(test.op, ast.And)) else test.values
        return all(
            isinstance(comparison, ast.Compare)
            and all(isinstance(op, _ORDERINGS) for op in comparison.ops)
            and any(name.id == index for name in _loads(comparison))
            for comparison in comparisons
        )

    def _raised_message(self, message: ast.expr | None) -> str | None:
        """The exception `assert c, NotImplementedError` (or `..., KeyError(key)`) names
        as its message: a builtin exception class, or a name ending in `Error` or
        `Exception`, or a call of one; None for any other message."""
        if isinstance(message, ast.Call):
            message = message.func
        if not isinstance(message, (ast.Name, ast.Attribute)):
            return None
        builtin = self._builtin(message)
        if builtin is not None and builtin.startswith("builtins."):
            return builtin.removeprefix("builtins.") if (
                builtin.removeprefix("builtins.") in BUILTIN_EXCEPTIONS) else None
        if _last_name(message).endswith(("Error", "Exception")):
            return ast.unparse(message)
        return None

    def _narrowing(self, node: ast.Assert) -> tuple[ast.expr, ast.expr] | None:
        """(`x`, the check) in a message-less `assert x`, `x is not None`,
        `isinstance(x, T)`, ...; in `a is not None and b.c is not None and ...`, the first
        check of an attribute (else the first check): one narrowing check makes the
        assert a type checker's, whatever else it tests."""
        if node.msg is not None:
            return None
        if isinstance(node.test, ast.BoolOp) and isinstance(node.test.op, ast.And):
            found = [(subject, value) for value in node.test.values
                     if (subject := self._narrowed_subject(value)) is not None]
            attributes = [pair for pair in found if isinstance(pair[0], ast.Attribute)]
            return (attributes or found or [None])[0]
        subject = self._narrowed_subject(node.test)
        return (subject, node.test) if subject is not None else None

    def _narrowed_subject(self, test: ast.expr) -> ast.expr | None:
        """`x` in `x`, `x is not None`, `isinstance(x, T)`, ..."""
        subject: ast.expr | None = None
        if (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.IsNot)
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None
        ):
            subject = test.left
        elif (
            isinstance(test, ast.Call)
            and self._builtin(test.func) in NARROWING_FUNCTIONS
            and test.args
        ):
            subject = test.args[0]
        elif isinstance(test, (ast.Attribute, ast.Name)):
            subject = test  # `assert algo.impl`: an Optional attribute is set
        return subject

    def _builtin(self, func: ast.expr) -> str | None:
        """"builtins.<name>" for a builtin the code calls: also where a star import
        could, in theory, rebind it (nobody's star import exports `isinstance`)."""
        qualified = self.model.qualified_name(func)
        if qualified is None and isinstance(func, ast.Name) and not self.model.bindings(func):
            return f"builtins.{func.id}"
        return qualified


# What a local holding the caller's values is made of: names, constants, attributes,
# subscripts, displays and builtin calls (`len(low)`, `tuple(shape)`, `x.shape[0]`).
_INPUT_EXPRESSIONS = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Slice,
                      ast.Call, ast.keyword, ast.Tuple, ast.List, ast.Set, ast.Dict,
                      ast.Starred, ast.expr_context)
# The defaulting idiom: `config["alpha"] if "alpha" in config else 0.5`, `x if x is not
# None else 1`, `config.get("q", 1.0)` still hold what the caller passed (or a constant).
_DEFAULTING = (ast.IfExp, ast.Compare, ast.In, ast.NotIn, ast.Is, ast.IsNot)
# Methods that read what the caller passed without computing from it: `config.get("q")`,
# a tensor's sizes (`means.size(-2)`: gsplat's `batch_dims`, `N`, `C` of its inputs, whose
# shape checks were left as invariants but one, round 18).
_READING_METHODS = ("get", "size", "dim", "ndimension")
_SIMPLE_STATEMENTS = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return)
# Subexpressions that may not run: `x.a if x is not None else 0`, `x and x.a`, lambdas.
_CONDITIONAL = (ast.IfExp, ast.BoolOp, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                ast.GeneratorExp)


def _presence_only(test: ast.expr, names: set[str],
                   function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the condition reads `names` only to ask whether they were passed: `x is
    None`, `x is not None`, `exists(x)` (and the like), or, for a parameter that
    defaults to None, `x` as a truth value (`assert maximize` on a flag that defaults to
    True checks its value)."""
    parents = {child: node for node in ast.walk(test) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(test):
        if not (isinstance(node, ast.Name) and node.id in names):
            continue
        parent = parents.get(node)
        if (parent is None or isinstance(parent, ast.BoolOp) or (
                isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not))):
            if _defaults_to_none(function, node.id):
                continue
            return False
        if (isinstance(parent, ast.Compare) and len(parent.ops) == 1
                and isinstance(parent.ops[0], ast.Is | ast.IsNot)
                and any(isinstance(side, ast.Constant) and side.value is None
                        for side in (parent.left, *parent.comparators))):
            continue
        if (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name)
                and parent.func.id in _PRESENCE_FUNCTIONS and parent.args == [node]):
            continue
        return False
    return True


def _holds_for_call(test: ast.expr, names: set[str], given: set[str], there: set[str],
                    function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a presence check (`exists(x)`, `x is not None`, `not (flag and not
    exists(x))`) holds for a call that passes `given` of the parameters, `there` of them
    a value that is not None by construction: one of `there` is there, another given is
    unknown (a flag passed, a builder's parameter passed on: its caller may pass None),
    one it leaves takes its default (None, True or False). False where the test reads
    anything else or cannot be told."""

    def value(name: str) -> object:
        # "there": not None, truth unknown; "unknown"; else the default's constant
        if name in there:
            return "there"
        if name in given:
            return "unknown"
        default = _default_of(function, name)
        return default.value if isinstance(default, ast.Constant) else "unknown"

    def truth(expr: ast.expr) -> bool | None:
        if isinstance(expr, ast.Name) and expr.id in names:
            known = value(expr.id)
            if known == "there":
                return True if _defaults_to_none(function, expr.id) else None
            return bool(known) if known in (None, True, False) else None
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
            inner = truth(expr.operand)
            return None if inner is None else not inner
        if isinstance(expr, ast.BoolOp):
            parts = [truth(part) for part in expr.values]
            if isinstance(expr.op, ast.And):
                return False if False in parts else None if None in parts else True
            return True if True in parts else None if None in parts else False
        if (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)
                and expr.func.id in ("exists", "is_not_none") and len(expr.args) == 1
                and isinstance(expr.args[0], ast.Name) and expr.args[0].id in names):
            known = value(expr.args[0].id)
            return None if known == "unknown" else known is not None
        if (isinstance(expr, ast.Compare) and len(expr.ops) == 1
                and isinstance(expr.ops[0], ast.Is | ast.IsNot)
                and isinstance(expr.left, ast.Name) and expr.left.id in names
                and isinstance(expr.comparators[0], ast.Constant)
                and expr.comparators[0].value is None):
            known = value(expr.left.id)
            if known == "unknown":
                return None
            is_none = known is None
            return is_none if isinstance(expr.ops[0], ast.Is) else not is_none
        return None

    return truth(test) is True


def _defaults_to_none(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    default = _default_of(function, name)
    return isinstance(default, ast.Constant) and default.value is None


def _default_of(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> ast.expr | None:
    """The default of the parameter `name` of `function`; None where it has none."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [
        *([None] * (len(positional) - len(arguments.defaults))), *arguments.defaults]
    pairs = [*zip(positional, defaults, strict=True),
             *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)]
    return next((default for argument, default in pairs if argument.arg == name), None)


# Helpers that ask whether a value was passed (lucidrains' `exists(v)`: `v is not None`).
_PRESENCE_FUNCTIONS = frozenset({"exists", "is_none", "is_not_none", "bool"})


def _dereferences(statement: ast.AST, name: str) -> bool:
    """Whether the statement reads an attribute of `name` or subscripts it, where that
    always runs (not in a conditional expression, `and`/`or`, lambda or comprehension)."""
    stack = [statement]
    while stack:
        current = stack.pop()
        if isinstance(current, _CONDITIONAL):
            continue
        if (isinstance(current, (ast.Attribute, ast.Subscript))
                and isinstance(current.value, ast.Name) and current.value.id == name):
            return True
        stack.extend(ast.iter_child_nodes(current))
    return False


_PRAGMA = re.compile(r"(?:noqa|type:|pragma|pylint|fmt:|nosec|pyright:|mypy:)", re.IGNORECASE)


def _is_not_none(test: ast.expr) -> ast.expr | None:
    """`x` in `x is not None`."""
    if (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.IsNot)
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None):
        return test.left
    return None


def _may_be_none(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """Whether the signature lets the parameter be None: a `None` default, or an
    annotation that names None or `Optional`."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [
        *[None] * (len(positional) - len(arguments.defaults)), *arguments.defaults]
    pairs = [*zip(positional, defaults, strict=True),
             *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)]
    for argument, default in pairs:
        if argument.arg != name:
            continue
        if isinstance(default, ast.Constant) and default.value is None:
            return True
        annotation = argument.annotation
        if annotation is None:
            return False
        return any(
            (isinstance(inner, ast.Constant) and inner.value is None)
            or (isinstance(inner, ast.Constant) and isinstance(inner.value, str)
                and ("None" in inner.value or "Optional" in inner.value))
            or (isinstance(inner, (ast.Name, ast.Attribute))
                and _last_name(inner) == "Optional")
            for inner in ast.walk(annotation)
        )
    return False


def _absolute_imports(tree: ast.Module) -> Iterator[str]:
    """The modules the module imports by absolute name (`from ray.rllib.policy.policy
    import Policy`: `ray.rllib.policy.policy`)."""
    for node in nodes_of(tree, ast.Import):
        yield from (alias.name for alias in node.names)
    for node in nodes_of(tree, ast.ImportFrom):
        if not node.level and node.module:
            yield node.module


def _operands(test: ast.expr, op: type[ast.boolop]) -> set[str]:
    """The spellings of what `a <op> b <op> c` joins; of the test itself otherwise."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, op):
        return {ast.unparse(part) for part in test.values}
    return {ast.unparse(test)}


# Builtin types an object is compared with by identity where `isinstance` was meant.
BUILTIN_TYPES = frozenset({f"builtins.{name}" for name in (
    "int", "float", "str", "bool", "list", "dict", "tuple", "set", "bytes")} |
    {"int", "float", "str", "bool", "list", "dict", "tuple", "set", "bytes"})


def _optional(annotation: ast.expr) -> bool:
    """Whether an annotation admits None: `X | None`, `Optional[X]`, `Union[X, None]`."""
    for node in ast.walk(annotation):
        if isinstance(node, ast.Constant) and node.value is None:
            return True
        if isinstance(node, ast.Name | ast.Attribute) and \
                (node.id if isinstance(node, ast.Name) else node.attr) == "Optional":
            return True
    return False


def _type_compared_with_string(test: ast.expr) -> str | None:
    """`type(x) == "dict"` (or `is`), alone or `and`-ed: the comparison's source; None
    where the test has none."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) \
        else [test]
    for part in parts:
        if not (isinstance(part, ast.Compare) and len(part.ops) == 1
                and isinstance(part.ops[0], ast.Eq | ast.Is)):
            continue
        sides = (part.left, part.comparators[0])
        if any(isinstance(side, ast.Call) and isinstance(side.func, ast.Name)
               and side.func.id == "type" and len(side.args) == 1 for side in sides) and any(
                isinstance(side, ast.Constant) and isinstance(side.value, str) for side in sides):
            return ast.unparse(part)
    return None


def _prints_message(message: ast.expr | None) -> str | None:
    """Why the message cannot be raised: `assert x, print("...")` prints and gives None
    (round 12: continuum), as do a logger's and `warnings.warn`'s calls; and
    `assert x, _raise(ValueError("..."))` raises the exception it is handed itself
    (torchmanager's idiom, round 41: `raise ValueError(_raise(...))` would wrap a raise
    in a raise)."""
    if not isinstance(message, ast.Call):
        return None
    func = message.func
    name = func.id if isinstance(func, ast.Name) else (
        func.attr if isinstance(func, ast.Attribute) else "")
    if name in MESSAGE_PRINTERS:
        return (f"its message is `{name}(...)`, which prints the text and gives None: "
                "raise the text itself, by hand")
    handed = message.args[0] if len(message.args) == 1 and not message.keywords else None
    if isinstance(handed, ast.Call) and _last_name(handed.func).endswith(
            ("Error", "Exception")):
        return (f"its message is `{name}({_last_name(handed.func)}(...))`, which raises that "
                f"exception itself (and is stripped with the assert by -O): raise the "
                f"{_last_name(handed.func)} directly, by hand")
    return None


_NEGATED_COMPARISONS: dict[type, type] = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.In: ast.NotIn, ast.NotIn: ast.In}


def _failure_spellings(test: ast.expr) -> set[str]:
    """The spellings of exactly the failure of the assert's condition: `not <test>` (and
    `x` for `not x`); for a truth test of `x`, `len(x) == 0` and `len(x) < 1` too (not
    `x is None`, which is not its falsity); the negated comparison (`a == b` → `a != b`);
    for `len(x) > 0`, `len(x) == 0`."""
    spellings = {ast.unparse(ast.UnaryOp(op=ast.Not(), operand=test))}
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        spellings.add(ast.unparse(test.operand))  # `assert not x` fails where `x` holds
    if isinstance(test, (ast.Name, ast.Attribute)):
        subject = ast.unparse(test)
        # a container's truth is its length (an object without __len__ would raise at
        # `len(x)` before, so the guard would not have been written that way)
        spellings |= {f"len({subject}) == 0", f"len({subject}) < 1", f"not len({subject})"}
    elif (isinstance(test, ast.Compare) and len(test.ops) == 1
          and type(test.ops[0]) in _NEGATED_COMPARISONS):
        negated = ast.Compare(left=test.left, ops=[_NEGATED_COMPARISONS[type(test.ops[0])]()],
                              comparators=test.comparators)
        spellings.add(ast.unparse(negated))
    elif (isinstance(test, ast.Compare) and len(test.ops) == 1
          and isinstance(test.left, ast.Call) and _last_name(test.left.func) == "len"
          and isinstance(test.comparators[0], ast.Constant)
          and ((isinstance(test.ops[0], ast.Gt) and test.comparators[0].value == 0)
               or (isinstance(test.ops[0], ast.GtE) and test.comparators[0].value == 1))):
        subject = ast.unparse(test.left)
        spellings |= {f"{subject} == 0", f"{subject} < 1", f"not {subject}"}
    return spellings


# Calls that compile the function they are handed into a kernel (JAX Pallas).
KERNEL_COMPILER_CALLS = frozenset({"pallas_call"})


def _handed_kernels(tree: ast.Module) -> set[str]:
    """The names of the functions the module hands to a kernel compiler's call, directly
    or through `functools.partial` (`pl.pallas_call(functools.partial(kernel, ...))`)."""
    found: set[str] = set()
    for call in nodes_of(tree, ast.Call):
        called = call.func.attr if isinstance(call.func, ast.Attribute) else \
            call.func.id if isinstance(call.func, ast.Name) else ""
        if called not in KERNEL_COMPILER_CALLS or not call.args:
            continue
        kernel = call.args[0]
        if isinstance(kernel, ast.Call) and _last_name(kernel.func) == "partial" \
                and kernel.args:
            kernel = kernel.args[0]
        if isinstance(kernel, ast.Name):
            found.add(kernel.id)
    return found


def _kernel_decorator(model: SemanticModel, decorator: ast.expr) -> bool:
    """`@triton.jit`, `@triton.jit(...)`, `@cute.kernel`, `@numba.njit`, `@ti.kernel`: a
    decorator whose last name is `jit`, `njit` or `kernel`, from a package other than
    torch; and `@torch.jit.script` / `@torch.jit.script_method`, also through a name bound
    to one (`MyStatic = torch.jit.script`), whose compiled assert `python -O` never strips
    (the caller gets `torch.jit.Error` either way: geoopt, round 17)."""
    if isinstance(decorator, ast.Call):
        decorator = decorator.func
    name = model.qualified_name(decorator) or ast.unparse(decorator)
    if name in TORCHSCRIPT_DECORATORS:
        return True
    if isinstance(decorator, ast.Name) and any(
            binding.value is not None
            and model.qualified_name(binding.value) in TORCHSCRIPT_DECORATORS
            for binding in model.bindings(decorator)):
        return True  # `MyStatic = torch.jit.script` where JIT is on (rwkv, round 21)
    parts = name.split(".")
    return parts[-1] in KERNEL_DECORATORS and parts[0] != "torch"


def _root(expression: ast.expr) -> ast.expr:
    """The name an attribute or item chain starts from: `states` of `states.tensor[0].x`."""
    while isinstance(expression, (ast.Attribute, ast.Subscript)):
        expression = expression.value
    return expression


def _asserts_itself(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the function's own body (not a function nested in it) holds an assert."""
    return any(isinstance(node, ast.Assert) for node in _statements_of(function))


def _names_used(node: ast.AST) -> set[str]:
    used: set[str] = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name):
            used.add(inner.id)
        elif isinstance(inner, ast.arg):
            used.add(inner.arg)
        elif isinstance(inner, (ast.Global, ast.Nonlocal)):
            used.update(inner.names)
    return used


def _statements_of(function: ast.AST) -> Iterator[ast.AST]:
    """The statements of a function's body at any depth, not those of nested defs."""
    stack = list(reversed(getattr(function, "body", [])))
    while stack:
        statement = stack.pop()
        yield statement
        if isinstance(statement, (*_FUNCTIONS, ast.ClassDef)):
            continue
        for field_name in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(reversed(getattr(statement, field_name, None) or []))


def _is_none_test(test: ast.expr) -> bool:
    """`x is None`, `x is not None`."""
    return (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Is | ast.IsNot)
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None)


def _is_compile_guard(test: ast.expr) -> bool:
    return (isinstance(test, ast.Call) and not test.args
            and _last_name(test.func) in COMPILE_GUARDS)


def _implies_compiling(test: ast.expr) -> bool:
    """Whether the test is true only while a compiler runs the code."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_implies_compiling(value) for value in test.values)
    return _is_compile_guard(test)


def _implies_not_compiling(test: ast.expr) -> bool:
    """Whether the test is false only while a compiler runs the code (its `else`)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return any(_implies_not_compiling(value) for value in test.values)
    return (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
            and _is_compile_guard(test.operand))


def _scopes_from(scope: Scope | None) -> Iterator[Scope]:
    while scope is not None:
        yield scope
        scope = scope.parent


def _bodies_around(model: SemanticModel, node: ast.AST) -> Iterator[ast.AST]:
    """The statements whose `body` (not `else`, handlers or `finally`) holds `node`,
    innermost first."""
    child = node
    for ancestor in model.ancestors(node):
        body = getattr(ancestor, "body", None)
        if isinstance(body, list) and any(child is statement for statement in body):
            yield ancestor
        child = ancestor


def _loads(expression: ast.expr) -> Iterator[ast.Name]:
    return (node for node in ast.walk(expression)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load))


def _tests_missing(test: ast.expr, name: str) -> bool:
    """`name is None`, `name == None` or `not name`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return isinstance(test.operand, ast.Name) and test.operand.id == name
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == name
        and len(test.ops) == 1
        and isinstance(test.ops[0], (ast.Is, ast.Eq))
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    )


def _built_string(test: ast.expr) -> bool:
    """A string built from a non-empty literal: an f-string, `"...".format(...)`,
    `"..." % x`; true whatever it is built with."""
    if isinstance(test, ast.JoinedStr):
        return any(isinstance(part, ast.Constant) and part.value for part in test.values)
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) \
            and test.func.attr == "format":
        test = test.func.value
    elif isinstance(test, ast.BinOp) and isinstance(test.op, ast.Mod):
        test = test.left
    else:
        return False
    return isinstance(test, ast.Constant) and isinstance(test.value, str) and bool(test.value)


def _always_true(test: ast.expr) -> bool:
    # `assert (x, "message")` and `assert "message"` never fail: not a check to keep.
    if isinstance(test, ast.Tuple):
        return bool(test.elts)
    return isinstance(test, ast.Constant) and bool(test.value)


def _registry_built(owner: ast.ClassDef) -> bool:
    """`@MODELS.register_module()` (OpenMMLab's registries): a class the framework builds
    from a config and wires to the other stages of a model."""
    for decorator in owner.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr == "register_module":
            return True
    return False


def _count(expr: ast.expr) -> bool:
    """A count a size is compared with: a whole-number constant, `self.num_levels`, `n`."""
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, int) and not isinstance(expr.value, bool)
    if isinstance(expr, ast.Attribute):
        return isinstance(expr.value, ast.Name) and expr.value.id == "self"
    return isinstance(expr, ast.Name)


def _always_false(test: ast.expr) -> bool:
    return isinstance(test, ast.Constant) and not test.value


# Functions and methods that find NaN or infinite elements of a tensor.
NAN_CHECKS = frozenset({"isnan", "isinf", "isfinite", "isneginf", "isposinf"})


# How many statements after a dimension check (`_dimensions_indexed_next`) or a path check
# (`_opened_next`) are looked through.
DIMENSIONS_LOOKAHEAD = 4


def _compared(test: ast.expr) -> list[ast.expr]:
    """The operands of a comparison (`0 <= 1 < ndim`: all three); none for other tests."""
    return [test.left, *test.comparators] if isinstance(test, ast.Compare) else []


def _indexed_dimension(node: ast.AST) -> ast.expr | None:
    """The tensor of `x.size(1)` or `x.shape[-2]` (a literal index); None otherwise."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "size" and len(node.args) == 1 and _literal_index(node.args[0]):
        return node.func.value
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and \
            node.value.attr == "shape" and _literal_index(node.slice):
        return node.value.value
    return None


def _literal_index(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


# The warnings a module gives on import to say it is deprecated.
DEPRECATION_WARNINGS = frozenset({"DeprecationWarning", "PendingDeprecationWarning",
                                  "FutureWarning"})


def _warns_deprecated_on_import(tree: ast.Module, model: SemanticModel) -> bool:
    """Whether a statement at the module's top level warns that it is deprecated:
    `warnings.warn("... is deprecated ...", DeprecationWarning)` (the category, or
    "deprecated" in the message)."""
    for statement in tree.body:
        if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
                and model.qualified_name(statement.value.func) == "warnings.warn"):
            continue
        call = statement.value
        category = call.args[1] if len(call.args) > 1 else next(
            (keyword.value for keyword in call.keywords if keyword.arg == "category"), None)
        if category is not None and _last_name(category) in DEPRECATION_WARNINGS:
            return True
        message = call.args[0] if call.args else next(
            (keyword.value for keyword in call.keywords if keyword.arg == "message"), None)
        if message is not None and any(
                isinstance(node, ast.Constant) and isinstance(node.value, str)
                and "deprecated" in node.value.lower() for node in ast.walk(message)):
            return True
    return False


def _checks_for_nan(test: ast.expr, model: SemanticModel) -> bool:
    """Whether the condition looks for NaN or infinite tensor elements (`torch.isnan(x)`,
    `x.isfinite().all()`); `math.isnan` and NumPy's test host values."""
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        and node.func.attr in NAN_CHECKS
        and not (model.qualified_name(node.func) or "").startswith(("numpy.", "math."))
        for node in ast.walk(test)
    )


def _reads_tensor_values(test: ast.expr, model: SemanticModel) -> bool:
    """Whether the condition reads values of a tensor (`x.isfinite().all()`,
    `torch.any(mask)`); `math.isnan` tests a float, and NumPy's functions
    (`np.all(np.diff(ids) >= 0)`: boltz, round 16) run on the host and sync no device,
    and so do pandas' and NumPy's methods in a module that imports pandas or NumPy and
    never torch (py-tgb's `df.u.max() - df.u.min()` on a DataFrame's columns, round 30,
    whose message about a device sync its reviewer found false; pytorch-trainer's
    `(target >= 0).all()` on arrays, round 38)."""
    imported = {(binding.qualified_name or "").split(".", 1)[0]
                for binding in model.imported_names()}
    if imported & {"pandas", "numpy"} and "torch" not in imported:
        return False  # NumPy arrays: pytorch-trainer's ConfusionMatrix (round 38)
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in TENSOR_VALUE_FUNCTIONS
        and not (model.qualified_name(node.func) or "").startswith(("numpy.", "math."))
        for node in ast.walk(test)
    )


def _is_test_function(name: str, at_module_level: bool) -> bool:
    # pytest collects `test*` functions at module level (methods only in test classes,
    # which are skipped whole: `test_step` on a LightningModule is not a test).
    # `assert_*` helpers exist to raise AssertionError, and so do `compare_*` ones
    # (open-metric-learning's `compare_dicts_recursively`, which its tests call bare:
    # round 40).
    bare = name.lstrip("_")
    return (at_module_level and name.startswith("test")) or bare.startswith("assert") or (
        identifier_words(bare)[:1] == ["compare"])


def _is_test_class(node: ast.ClassDef) -> bool:
    if node.name.startswith("Test"):
        return True
    return any(_last_name(base).endswith("TestCase") for base in node.bases)


def _initializes_weights(name: str) -> bool:
    """`weight_init`, `init_weights`, `param_init_fn`, `generic_param_init_fn_`: a
    function a model applies to its own modules (round 13: sheeprl's `weight_init`,
    llm-foundry's `param_init_fns.py`)."""
    words = set(identifier_words(name))
    return bool(words & {"init", "initialize", "initialise"}) and bool(
        words & {"weight", "weights", "param", "params", "parameters"})


def _last_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _imports_test_framework(tree: ast.Module) -> bool:
    """Whether the module imports pytest or unittest (other than unittest.mock)."""
    modules: list[str] = []
    for node in nodes_of(tree, ast.Import):
        modules += [alias.name for alias in node.names]
    for node in nodes_of(tree, ast.ImportFrom):
        if node.module == "unittest":
            modules += [f"unittest.{alias.name}" for alias in node.names]
        else:
            modules.append(node.module or "")
    return any(
        module.split(".")[0] == "pytest"
        or (module.split(".")[0] == "unittest" and not module.startswith("unittest.mock"))
        for module in modules
    )


def _following_statements(model: SemanticModel, node: ast.stmt) -> list[ast.stmt]:
    """The statements after `node` in the same block."""
    found = model.block_of(node)
    return found[0][found[1] + 1:] if found is not None else []


def _under_conditional_expression(node: ast.AST, statement: ast.stmt) -> bool:
    """Whether `node` lies in an arm of a conditional expression, a short-circuit `and`/
    `or` operand after the first, or a comprehension of `statement`: it may not run."""
    for candidate in ast.walk(statement):
        if isinstance(candidate, ast.IfExp):
            arms = (candidate.body, candidate.orelse)
        elif isinstance(candidate, ast.BoolOp):
            arms = tuple(candidate.values[1:])
        elif isinstance(candidate, (ast.ListComp, ast.SetComp, ast.DictComp,
                                    ast.GeneratorExp, ast.Lambda)):
            arms = (candidate,)
        else:
            continue
        if any(node is inner for arm in arms for inner in ast.walk(arm)):
            return True
    return False


def _next_statement(model: SemanticModel, node: ast.stmt) -> ast.stmt | None:
    """The statement right after `node` in the same block; None where it is the last."""
    following = _following_statements(model, node)
    return following[0] if following else None


def _reraises(handler: ast.ExceptHandler) -> bool:
    """Whether every `raise` of the handler raises the caught exception again (`raise`,
    `raise exc` for `except E as exc`), and there is at least one."""
    raised = [inner for inner in ast.walk(handler) if isinstance(inner, ast.Raise)]
    return bool(raised) and all(
        inner.exc is None or (isinstance(inner.exc, ast.Name) and inner.exc.id == handler.name)
        for inner in raised)


def _catches_assertion_error(node: ast.AST) -> bool:
    for handler in getattr(node, "handlers", ()):
        caught = handler.type
        if caught is None:
            continue
        names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
        if any(_last_name(name) == ASSERTION_ERROR for name in names):
            return True
    return False


def _called_names(tries: list[ast.AST]) -> set[str]:
    """Names of the functions and methods called in the bodies of these `try`s."""
    called: set[str] = set()
    for node in tries:
        for statement in node.body:  # type: ignore[attr-defined]
            for inner in ast.walk(statement):
                if isinstance(inner, ast.Call):
                    name = _last_name(inner.func)
                    if name:
                        called.add(name)
    return called


def _plain_assignment(binding: Binding) -> bool:
    """Whether `binding` is `name = value` or `name: T = value`: one name, not augmented,
    not unpacked."""
    statement = binding.statement
    if (binding.kind is not BindingKind.ASSIGNMENT or binding.augmented
            or binding.value is None):
        return False
    if isinstance(statement, ast.Assign):
        return len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)
    return isinstance(statement, ast.AnnAssign)


def _unpacking(binding: Binding) -> bool:
    """Whether `binding` is a name of `a, b = value`: one flat tuple or list of names."""
    statement = binding.statement
    if (binding.kind is not BindingKind.ASSIGNMENT or binding.augmented
            or not isinstance(statement, ast.Assign) or len(statement.targets) != 1):
        return False
    target = statement.targets[0]
    return isinstance(target, ast.Tuple | ast.List) and all(
        isinstance(element, ast.Name) for element in target.elts)


def _formatted_condition_unexplained(node: ast.Assert) -> str | None:
    """Why an assert with no message (or an empty one) whose condition holds an f-string
    is reported: the generated `"expected <condition>"` would show the f-string's fields
    as written, `{model_name_or_path}`, which reads as a formatting bug (ai2-olmo-core,
    round 19)."""
    message = node.msg
    if message is not None and not (isinstance(message, ast.Constant) and message.value == ""):
        return None
    if not any(isinstance(inner, ast.JoinedStr) for inner in ast.walk(node.test)):
        return None
    return ("the assert has no message and its condition holds an f-string, which a "
            "generated message would show unformatted: raise with a message of your own")


def _int_parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The parameters annotated `int` (not Optional: `None` cannot be ordered anyway)."""
    arguments = function.args
    return {argument.arg for argument in (*arguments.posonlyargs, *arguments.args,
                                          *arguments.kwonlyargs)
            if isinstance(argument.annotation, ast.Name) and argument.annotation.id == "int"}


def raises_documented(project: Project, root: str) -> str:
    """"documents" where the docstrings of the project below `root` (tests, hidden and
    build folders aside) document what their functions raise (`RAISES_DOCUMENTED`),
    else "". Each file's part is remembered between runs (`raise_documentation`)."""
    counts = every_answer(project.memo(RAISES_DOCUMENTED.replace("/", "-")),
                          project_modules(root), raise_documentation)
    documenting = sum(count[0] for count in counts)
    raising = sum(count[1] for count in counts)
    follows = (documenting >= RAISES_DOCUMENTED_MIN
               and documenting >= RAISES_DOCUMENTED_SHARE * raising)
    return "documents" if follows else ""


register_derived_fact(RAISES_DOCUMENTED, raises_documented)


def messages_assigned(project: Project, root: str) -> str:
    """"assigns" where the project below `root` (tests, hidden and build folders aside)
    writes its exception messages as flake8-errmsg asks, `msg = "..."` then `raise
    E(msg)`, nearly everywhere (`MESSAGES_ASSIGNED_MIN` raises, `MESSAGES_ASSIGNED_SHARE`
    of them), where no lint configuration ships to say so (nncf 3.4.0: 421 such raises, 1
    with a string literal; round 22), else "". Read off the raise census."""
    (assigned, inline), _bases, _raised = totals(census(project, root))
    follows = (assigned >= MESSAGES_ASSIGNED_MIN
               and assigned >= MESSAGES_ASSIGNED_SHARE * (assigned + inline))
    return "assigns" if follows else ""


register_derived_fact(MESSAGES_ASSIGNED, messages_assigned)


def openmmlab_modules(project: Project, root: str) -> str:
    """"N of M" where N of the M modules below `root` import mmengine or mmcv and they
    pass `OPENMMLAB_SHARE` and `OPENMMLAB_MIN`, else "". Each file's part is remembered
    between runs."""
    memo = project.memo(OPENMMLAB.replace("/", "-"))
    modules = building = 0
    for path in project_modules(root):
        modules += 1
        building += (_imports_openmmlab(path) if memo is None
                     else memo.result(path, str(path), _imports_openmmlab))
    if memo is not None:
        memo.save()
    if building >= OPENMMLAB_MIN and building >= OPENMMLAB_SHARE * modules:
        return f"{building} of {modules}"
    return ""


def _imports_openmmlab(path: Path) -> int:
    """1 where the module imports mmengine or mmcv (at any depth), else 0."""
    tree = parse_if_mentions(path, b"mmengine", b"mmcv")
    if tree is None:
        return 0  # most modules: not parsed
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        if any(name.split(".")[0] in OPENMMLAB_PACKAGES for name in names):
            return 1
    return 0


register_derived_fact(OPENMMLAB, openmmlab_modules)


def assert_validators(project: Project, root: str) -> str:
    """The names of the project's assert-based validators (`ASSERT_VALIDATORS`) that at
    least `ASSERT_VALIDATOR_MIN_MODULES` modules call, space-separated."""
    memo = project.memo(ASSERT_VALIDATORS.replace("/", "-"))
    defined: set[str] = set()
    callers: dict[str, int] = {}
    for path in project_modules(root):
        part = (_validator_part(path) if memo is None
                else memo.result(path, str(path), _validator_part))
        defined.update(part[0])
        for name in part[1]:
            callers[name] = callers.get(name, 0) + 1
    if memo is not None:
        memo.save()
    return " ".join(sorted(name for name in defined
                           if callers.get(name, 0) >= ASSERT_VALIDATOR_MIN_MODULES))


def _validator_part(path: Path) -> list[list[str]]:
    """[validators the module defines with asserts alone, validator names it calls]."""
    tree = parse_if_mentions(path, *(word.encode() for word in VALIDATOR_WORDS))
    if tree is None:
        return [[], []]  # most modules: not parsed
    defined: list[str] = []
    for function in nodes_of(tree, ast.FunctionDef):
        words = identifier_words(function.name)
        if len(words) < 2 or words[0] not in VALIDATOR_WORDS:
            continue  # a bare `validate` is every other class's method too
        inner = list(ast.walk(function))
        if (sum(isinstance(node, ast.Assert) for node in inner) >= ASSERT_VALIDATOR_MIN_ASSERTS
                and not any(isinstance(node, ast.Raise) for node in inner)):
            defined.append(function.name)
    called = sorted({name for call in nodes_of(tree, ast.Call)
                     if (name := _last_name(call.func))
                     and (words := identifier_words(name)) and words[0] in VALIDATOR_WORDS})
    return [defined, called]


register_derived_fact(ASSERT_VALIDATORS, assert_validators)


# "1" where a test file of the project names the def or class `name`, "" where none does.
TESTED = "assert-to-raise/tested"


def tested(project: Project, name: str) -> str:
    return "1" if project.named_by_tests(name) else ""


register_derived_fact(TESTED, tested)
