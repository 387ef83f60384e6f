"""Modules nothing can import (stray copies whose package lacks the modules they import
relatively) are not processed: each gets a warning, and naming the file processes it."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from git_helpers import isolate_git, torchfix, write_files

from torchfix.model.importability import missing_relative_imports

# torchcv's `image/detection.py`, copied from mxnet (round 36): `..base` and `..ndarray`
# are mxnet's modules, not torchcv's.
STRAY = (
    "from ..base import numeric_types\n"
    "from .. import ndarray as nd\n"
    "from ..ndarray._internal import _cvcopyMakeBorder\n"
    "from .image import Augmenter\n\n\n"
    "def check_size(size):\n"
    "    assert isinstance(size, int), 'size must be an int'\n"
    "    return size\n"
)
PROJECT = {
    "pkg/__init__.py": "",
    "pkg/utils.py": "",
    "pkg/image/__init__.py": "",
    "pkg/image/image.py": "class Augmenter:\n    pass\n",
    "pkg/image/detection.py": STRAY,
}


@pytest.fixture(autouse=True)
def _git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path / "home")


def _missing(tmp_path: Path, relative: str) -> list[tuple[str, int]]:
    path = tmp_path / relative
    return missing_relative_imports(ast.parse(path.read_text()), path, tmp_path)


def test_relative_imports_of_modules_the_package_lacks_are_found(tmp_path: Path) -> None:
    write_files(tmp_path, PROJECT)
    assert _missing(tmp_path, "pkg/image/detection.py") == [
        ("..base", 1), ("..ndarray._internal", 3)]
    # `from .. import ndarray` may name anything the package's __init__ defines: not judged


def test_built_and_guarded_modules_count_as_present(tmp_path: Path) -> None:
    write_files(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/_C.cpython-311-x86_64-linux-gnu.so": b"",  # a compiled extension
        "pkg/_ops.pyx": "",  # Cython, compiled by the build
        "pkg/ext/__init__.py": "",
        "pkg/core.py": (
            "from ._C import forward\nfrom ._ops import cumsum\nfrom .ext import thing\n"
            "try:\n    from .fast import kernel\nexcept ImportError:\n    kernel = None\n"
            "from ...outside import reached_above_the_root\n"
            "def lazy():\n    from .later import x\n"
        ),
    })
    assert _missing(tmp_path / "pkg", "core.py") == []


def test_namespace_portions_and_other_cases_are_not_judged(tmp_path: Path) -> None:
    # optimum-neuron's `optimum/commands/` has no __init__.py: `..base` and `...utils`
    # come from the `optimum` distribution; graphgallery's `from .bvat import` finds
    # `BVAT/` on macOS and Windows
    write_files(tmp_path, {
        "optimum/commands/neuron/__init__.py": "",
        "optimum/commands/neuron/base.py": "from ..base import Command\nfrom ...utils import log\n",
        "gallery/__init__.py": "from .bvat import obvat\nfrom .bvat.sbvat import S\n",
        "gallery/BVAT/__init__.py": "",
    })
    assert _missing(tmp_path, "optimum/commands/neuron/base.py") == []
    assert _missing(tmp_path, "gallery/__init__.py") == []


def test_a_stray_copy_is_warned_of_and_not_processed(tmp_path: Path) -> None:
    write_files(tmp_path, PROJECT)
    result = torchfix("check", "--unsafe-fixes", "--show-all", ".", cwd=tmp_path)
    assert "pkg/image/detection.py" not in result.stdout
    assert ("pkg/image/detection.py:1:1: warning: not processed: its package has no module "
            "`..base`, `..ndarray._internal`, which it imports") in result.stderr
    report = json.loads(torchfix("check", "--unsafe-fixes", "--output-format", "json", ".",
                                 cwd=tmp_path).stdout)
    assert report["summary"]["unimportable_skipped"] == 1
    assert [warning["path"] for warning in report["warnings"]] == ["pkg/image/detection.py"]
    # naming the file processes it
    named = torchfix("check", "--unsafe-fixes", "--show-all", "pkg/image/detection.py",
                     cwd=tmp_path)
    assert "pkg/image/detection.py:8:5 assert-to-raise" in named.stdout


def test_one_missing_module_may_be_a_build_output(tmp_path: Path) -> None:
    # `from .version import __version__`, written by setup.py at build time
    write_files(tmp_path, {**PROJECT, "pkg/image/detection.py": (
        "from ..version import __version__\n" + STRAY.split("\n", 3)[3])})
    result = torchfix("check", "--unsafe-fixes", "--show-all", ".", cwd=tmp_path)
    assert "pkg/image/detection.py:" in result.stdout
    assert "not processed" not in result.stderr


def test_the_cached_result_follows_the_package(tmp_path: Path) -> None:
    # the modules it imports appear (a sync of the vendored package): processed again
    write_files(tmp_path, PROJECT)
    first = torchfix("check", "--unsafe-fixes", "--show-all", ".", cwd=tmp_path)
    assert "not processed" in first.stderr
    write_files(tmp_path, {"pkg/base.py": "numeric_types = (int, float)\n",
                           "pkg/ndarray/__init__.py": "", "pkg/ndarray/_internal.py": ""})
    second = torchfix("check", "--unsafe-fixes", "--show-all", ".", cwd=tmp_path)
    assert "not processed" not in second.stderr
    assert "pkg/image/detection.py:8:5 assert-to-raise" in second.stdout
    # and back: the cached result of the processed file read those folder entries
    (tmp_path / "pkg/base.py").unlink()
    (tmp_path / "pkg/ndarray/_internal.py").unlink()
    (tmp_path / "pkg/ndarray/__init__.py").unlink()
    (tmp_path / "pkg/ndarray").rmdir()
    third = torchfix("check", "--unsafe-fixes", "--show-all", ".", cwd=tmp_path)
    assert "not processed" in third.stderr
