"""flake8 plugins a project runs (darglint, flake8-commas) read by the formatter settings,
and the docstring Raises sections assert-to-raise writes for them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from codemods.assertions.raises_doc import documents, with_raises
from torchfix.model.complexity import complexity
from torchfix.model.formatter import find_formatter_settings


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


@pytest.mark.parametrize("files, darglint, commas", [
    ({"setup.cfg": "[darglint]\nstrictness = short\n"}, True, False),
    ({"tox.ini": "[flake8]\nmax-line-length = 88\n",
      "requirements-dev.txt": "flake8-commas==2.1.0\ndarglint~=1.8\n"}, True, True),
    ({".pre-commit-config.yaml": "- repo: https://github.com/pycqa/flake8\n"
                                 "  additional_dependencies: [flake8-commas]\n"}, False, True),
    # flake8-commas without flake8 (a name in a list of pins, say): not run
    ({"requirements.txt": "flake8-commas\n"}, False, False),
    ({"setup.cfg": "[flake8]\nextend-ignore = E203, DAR401, C8\n[darglint]\n"}, False, False),
    ({"setup.cfg": "[tool:pytest]\n"}, False, False),
])
def test_flake8_plugins(tmp_path, files, darglint, commas):
    settings = find_formatter_settings(_project(tmp_path, files))
    assert settings.enables("DAR401", "pkg/module.py") is darglint
    assert settings.enables("C812", "pkg/module.py") is commas
    assert not settings.enables("COM812") and not settings.enables("DOC501")


def test_flake8_per_file_ignores(tmp_path):
    settings = find_formatter_settings(_project(tmp_path, {
        "setup.cfg": "[flake8]\nper-file-ignores =\n    pkg/legacy/*.py:D,F841\n"
                     "    setup.py:E501\n[darglint]\n"}))
    assert not settings.enables("DAR401", "pkg/legacy/old.py")
    assert settings.enables("DAR401", "pkg/new.py")


GOOGLE = '''"""Scale.

        Args:
            x: the input.
        """'''


def test_a_raises_section_is_added_once():
    once = with_raises(GOOGLE, [("ValueError", "x must be positive")])
    assert once == ('"""Scale.\n\n        Args:\n            x: the input.\n\n'
                    '        Raises:\n            ValueError: x must be positive\n        """')
    assert with_raises(once, [("ValueError", "x must be positive")]) == once
    assert documents(once[3:-3], "ValueError") and not documents(once[3:-3], "TypeError")


FOOTED = {  # torchwright (round 55): a generated `.. noise-footer::` block closes it
    "google": ('"""Minimum.\n\n    Args:\n        a: first.\n\n    Returns:\n        The '
               'minimum.\n\n    .. noise-footer::\n\n       Max error: 3.8e-06 abs.\n    """',
               '    Returns:\n        The minimum.\n\n    Raises:\n        ValueError: a must '
               'be positive\n\n    .. noise-footer::\n\n       Max error: 3.8e-06 abs.\n    """'),
    "numpy": ('"""Minimum.\n\n    Returns\n    -------\n    float\n        The minimum.\n\n'
              '    .. noise-footer::\n\n       Max error.\n    """',
              '    float\n        The minimum.\n\n    Raises\n    ------\n    ValueError\n'
              '        a must be positive\n\n    .. noise-footer::\n\n       Max error.\n    """'),
}


@pytest.mark.parametrize("style", sorted(FOOTED))
def test_a_new_raises_section_goes_before_what_closes_the_docstring(style):
    literal, ending = FOOTED[style]
    edited = with_raises(literal, [("ValueError", "a must be positive")])
    assert edited is not None and edited.endswith(ending)
    assert edited.count("noise-footer") == 1 and edited.startswith(literal.split("    .. ")[0])


@pytest.mark.parametrize("literal", [
    '"""One line."""',  # no sections
    'f"""Scale.\n\n    Args:\n        x: the input.\n    """',  # not a plain string
    '"""Scale.\n\n    Args:\n        x: the input."""',  # closing quotes after the text
])
def test_docstrings_not_edited(literal):
    assert with_raises(literal, [("ValueError", "x must be positive")]) is None


@pytest.mark.parametrize("description", ['say "hi"', "a \\ b", "two\nlines"])
def test_descriptions_that_need_escaping_are_refused(description):
    assert with_raises(GOOGLE, [("ValueError", description)]) is None


@pytest.mark.parametrize("files, style", [
    ({".darglint": "[darglint]\ndocstring_style = sphinx\n"}, "sphinx"),
    ({"setup.cfg": "[darglint]\ndocstring_style = NUMPY\n"}, "numpy"),
    ({".pre-commit-config.yaml": "additional_dependencies: [darglint]\n"}, "google"),
    ({"setup.cfg": "[darglint]\ndocstring_style = epytext\n"}, "google"),  # unknown: default
    ({"setup.cfg": "[flake8]\nmax-line-length = 100\n"}, None),
])
def test_darglints_docstring_style_comes_with_the_formatter_settings(tmp_path, files, style):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert find_formatter_settings(tmp_path).docstring_style == style


@pytest.mark.parametrize(("files", "limit"), [
    ({"pyproject.toml": '[tool.ruff.lint]\nselect = ["ALL"]\n'}, 10),  # ruff's default
    ({"ruff.toml": '[lint]\nselect = ["C90"]\n[lint.mccabe]\nmax-complexity = 7\n'}, 7),
    ({"ruff.toml": '[lint]\nselect = ["ALL"]\nignore = ["C901"]\n'}, None),
    ({"pyproject.toml": '[tool.ruff.lint]\nselect = ["E", "F"]\n'}, None),
    ({"setup.cfg": "[flake8]\nmax-complexity = 12\n"}, 12),
    ({"setup.cfg": "[flake8]\nmax-complexity = -1\n"}, None),
])
def test_the_complexity_limit_c901_checks(tmp_path, files, limit):
    assert find_formatter_settings(_project(tmp_path, files)).complexity_limit("a.py") == limit


COMPLEX = '''
def f(x, items):
    if x:                       # 1
        pass
    elif x > 1:                 # 2
        pass
    else:
        pass
    for item in items:          # 3
        while item:             # 4
            item -= 1
    else:
        pass
    try:
        pass
    except ValueError:          # 5
        pass
    except KeyError:            # 6
        pass
    else:                       # 7
        pass
    with open(x) as handle:
        if handle and x or not x:  # 8: boolean operators do not count
            pass
    match x:
        case 1:                 # 9
            pass
        case _:                 # irrefutable and last: not counted
            pass

    def inner():                # 10
        assert x, "asserts do not count"
        return [y for y in items if y]
    return inner
'''


def test_mccabe_complexity_counts_as_ruff_does():
    function = ast.parse(COMPLEX).body[0]
    assert isinstance(function, ast.FunctionDef)
    assert complexity(function) == 11
