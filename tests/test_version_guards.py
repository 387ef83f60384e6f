"""The torch floor read from a project's own version checks."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from torchfix.model.project import Project
from torchfix.model.torch_floor import find_torch_floor
from torchfix.model.version_guards import below, find_guard_floor


def _project(tmp_path: Path, code: str, name: str = "pkg/mod.py") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(code)
    return tmp_path


@pytest.mark.parametrize(("code", "floor"), [
    ('import torch\nOLD = torch.__version__ < "1.10"\n', (1, 9)),
    ('import torch\nif torch.__version__ >= "1.8.1":\n    pass\n', (1, 8)),
    ('import torch\nfrom packaging import version\n'
     'X = version.parse(torch.__version__) < version.parse("1.12")\n', (1, 11)),
    ('import torch\nfrom mmengine.utils import digit_version\n'
     'if digit_version(torch.__version__) >= digit_version("1.10.0"):\n    pass\n', (1, 9)),
    ('from mmengine.utils.dl_utils import TORCH_VERSION\n'
     'from mmengine.utils import digit_version\n'
     'if digit_version(TORCH_VERSION) < digit_version("1.8.0"):\n    pass\n', (1, 7)),
    ('import torch\nTORCH_VERSION = tuple(int(p) for p in torch.__version__.split(".")[:2])\n'
     'NEW = TORCH_VERSION >= (1, 9)\n', (1, 8)),
    ('import torch as th\nfrom packaging.version import Version\n_v = Version(th.__version__)\n'
     '_MIN = Version("2.0")\nFAST = _v >= _MIN\n', (1, 13)),
    ('import torch\nNEW = torch.__version__ > "1.6"\n', (1, 6)),
    ('from transformers.utils import is_torch_greater_or_equal\n'
     'if is_torch_greater_or_equal("2.1"):\n    pass\n', (2, 0)),
    ('import operator\nfrom lightning_utilities import compare_version\n'
     'NEW = compare_version("torch", operator.ge, "1.10.0")\n', (1, 9)),
    ('from lightning_utilities import RequirementCache\n'
     'NEW = RequirementCache("torch>=2.2")\n', (2, 1)),
    ('import torch\nCOMPILE = hasattr(torch, "compile")\n', (1, 13)),
    ('import torch\nOLD = torch.__version__.startswith("1.8")\n', (1, 8)),
    # classy-vision's helper, bundled by vissl (round 14): a list for a version
    ('from classy_vision.generic.util import get_torch_version\n'
     'silu = None if get_torch_version() < [1, 7] else 1\n', (1, 6)),
    # The older torch is refused: the floor is the version itself.
    ('import torch\nfrom packaging.version import Version\nMIN = "1.1.0"\n'
     'if Version(torch.__version__) < Version(MIN):\n    raise ImportWarning("too old")\n',
     (1, 1)),
    ('import torch\nassert torch.__version__ >= "1.13"\n', (1, 13)),
])
def test_version_checks_give_the_floor(tmp_path, code, floor):
    guard = find_guard_floor(_project(tmp_path, code))
    assert guard is not None and guard.version == floor
    assert (guard.path, guard.line) == ("pkg/mod.py", guard.line)


@pytest.mark.parametrize("code", [
    'import torchvision\nimport torch\nOLD = torch.__version__ < "0.13"\n',  # torchvision's
    'import torch\nMAJOR = int(torch.__version__.split(".")[0]) >= 2\n',  # a part, not a version
    'import torch\nprint(torch.__version__)\n',
    'import numpy\nOLD = numpy.__version__ < "1.20"\n',  # not torch
    'import torch\nLATEST = torch.__version__ < "3.0"\n',  # some 2.x: no floor
])
def test_what_is_no_torch_version_check(tmp_path, code):
    assert find_guard_floor(_project(tmp_path, code)) is None


def test_a_tests_asserts_and_setup_py_do_not_count(tmp_path):
    _project(tmp_path, 'import torch\nassert torch.__version__ >= "1.5"\n', "tests/test_x.py")
    _project(tmp_path, 'import torch\nif torch.__version__ >= "2.0":\n    pass\n', "setup.py")
    assert find_guard_floor(tmp_path) is None


def test_a_test_skipped_on_an_old_release_sets_the_floor(tmp_path):
    # mmrazor (round 23): its suite skips one test on torch 1.8.1, so it runs there
    _project(tmp_path, 'import torch\nOLD = torch.__version__ == "1.8.1"\n', "tests/test_old.py")
    _project(tmp_path, 'import torch\nNEW = torch.__version__ < "1.12"\n', "pkg/mod.py")
    guard = find_guard_floor(tmp_path)
    assert guard is not None and guard.version == (1, 8)
    assert guard.path == "tests/test_old.py"


def test_lowest_check_wins_and_a_declared_floor_beats_it(tmp_path):
    _project(tmp_path, 'import torch\nA = torch.__version__ >= "1.12"\n', "pkg/a.py")
    _project(tmp_path, 'import torch\nB = torch.__version__ >= "1.10"\n', "pkg/b.py")
    floor = find_torch_floor(tmp_path)
    assert floor.version == (1, 9)
    assert floor.source == "the torch version check at pkg/b.py:2"
    (tmp_path / "requirements.txt").write_text("torch>=2.1\n")
    assert find_torch_floor(tmp_path).version == (2, 1)


def test_configured_min_torch_beats_the_checks(tmp_path):
    _project(tmp_path, 'import torch\nA = torch.__version__ >= "1.10"\n')
    assert Project(tmp_path).min_torch() == (1, 9)
    assert Project(tmp_path, configured_min_torch=(2, 4)).min_torch() == (2, 4)


def test_a_changed_check_changes_the_cached_floor_fact(tmp_path):
    _project(tmp_path, 'import torch\nA = torch.__version__ >= "1.10"\n')
    project = Project(tmp_path)
    project.min_torch()
    read = dict(project.facts_read)
    _project(tmp_path, 'import torch\nA = torch.__version__ >= "1.12"\n')
    fresh = Project(tmp_path)
    assert fresh.current_digest("project:torch-floor") != read["project:torch-floor"]


def test_below():
    assert below((1, 10, 0)) == (1, 9)
    assert below((1, 8, 1)) == (1, 8)
    assert below((2, 0, 0)) == (1, 13)
    assert below((1, 0, 0)) == (0, 4)
    assert below((3, 0, 0)) is None


def test_the_scan_memo_rereads_only_changed_files(tmp_path, monkeypatch):
    from torchfix.model import version_guards
    from torchfix.model.scan_memo import ScanMemo

    root = _project(tmp_path / "repo", 'import torch\nOLD = torch.__version__ < "1.10"\n')
    _project(root, 'import torch\nNEW = torch.__version__ >= "2.1"\n', "pkg/other.py")
    read: list[str] = []
    original = version_guards.guards_in_file

    def counting(path, project_root):
        read.append(path.name)
        return original(path, project_root)

    monkeypatch.setattr(version_guards, "guards_in_file", counting)
    memo_file = tmp_path / "memo.json"
    assert find_guard_floor(root, ScanMemo(memo_file, "code-1")).version == (1, 9)
    assert sorted(read) == ["mod.py", "other.py"]
    # Another run (a new memo object, as a new process has): nothing is read again.
    read.clear()
    assert find_guard_floor(root, ScanMemo(memo_file, "code-1")).version == (1, 9)
    assert read == []
    # An edited file is read again and its new check counts.
    (root / "pkg/mod.py").write_text('import torch\nOLD = torch.__version__ < "1.13.1"\n')
    assert find_guard_floor(root, ScanMemo(memo_file, "code-1")).version == (1, 13)
    assert read == ["mod.py"]
    # Another torchfix (its rules may differ) scans everything again.
    read.clear()
    assert find_guard_floor(root, ScanMemo(memo_file, "code-2")).version == (1, 13)
    assert sorted(read) == ["mod.py", "other.py"]


def test_an_unreadable_memo_is_an_empty_one(tmp_path):
    from torchfix.model.scan_memo import ScanMemo

    root = _project(tmp_path / "repo", 'import torch\nOLD = torch.__version__ < "1.10"\n')
    memo_file = tmp_path / "memo.json"
    for garbage in (b"{not json", b"[]", b'{"code": "c", "files": {"pkg/mod.py": [1]}}'):
        memo_file.write_bytes(garbage)
        assert find_guard_floor(root, ScanMemo(memo_file, "c")).version == (1, 9)


def _ceiling(source: str, marker: str):
    from torchfix.model.semantic import SemanticModel
    from torchfix.model.version_guards import older_branch_ceiling

    tree = ast.parse(source)
    model = SemanticModel(tree, "m", False)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == marker)
    return older_branch_ceiling(tree, node, model.ancestors(node))


def test_the_branch_kept_for_older_torch_has_a_ceiling():
    source = (
        "import torch\n"
        "if torch.__version__ >= '2.0':\n    newer\nelse:\n    older\n"
        "if torch.__version__ <= '1.13':\n    upto\n"
        "x = fallback if torch.__version__ < (2, 1) else current\n"
        "unguarded\n"
    )
    assert _ceiling(source, "older") == (2, 0)
    assert _ceiling(source, "newer") is None
    assert _ceiling(source, "upto") == (1, 14)
    assert _ceiling(source, "fallback") == (2, 1)
    assert _ceiling(source, "current") is None
    assert _ceiling(source, "unguarded") is None
