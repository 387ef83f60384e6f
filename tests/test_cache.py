"""Unchanged files are not parsed again; anything that could change a result misses."""

from __future__ import annotations

from pathlib import Path

import pytest

from torchfix.engine import process as engine

from conftest import NEEDS_FIX, UNSAFE_ONLY


@pytest.fixture
def parses(monkeypatch) -> list[Path]:
    """Record every file the engine really processes (cache misses)."""
    seen: list[Path] = []
    original = engine.process_source

    def counting(data, path, settings, *rest, **options):
        seen.append(path)
        return original(data, path, settings, *rest, **options)

    monkeypatch.setattr(engine, "process_source", counting)
    return seen


def test_a_warm_run_reuses_results_and_prints_the_same(tmp_path, cli, parses):
    (tmp_path / "a.py").write_text(NEEDS_FIX)
    (tmp_path / "b.py").write_text(UNSAFE_ONLY)
    cold = cli("check", ".")
    assert len(parses) == 2
    warm = cli("check", ".")
    assert len(parses) == 2  # nothing processed again
    assert (warm.exit_code, warm.stdout) == (cold.exit_code, cold.stdout)


def test_an_edited_file_or_other_settings_miss(tmp_path, cli, parses):
    target = tmp_path / "a.py"
    target.write_text(NEEDS_FIX)
    cli("check", ".")
    target.write_text(NEEDS_FIX + "\n# edited\n")
    cli("check", ".")
    assert len(parses) == 2
    cli("check", "--unsafe-fixes", ".")
    assert len(parses) == 3
    cli("apply", "--dry-run", ".")  # a different kind of run: it needs the new text
    assert len(parses) == 4


def test_no_cache_bypasses_it(tmp_path, cli, parses):
    (tmp_path / "a.py").write_text(NEEDS_FIX)
    cli("check", "--no-cache", ".")
    cli("check", "--no-cache", ".")
    assert len(parses) == 2
    assert not (tmp_path / ".torchfix_cache").exists()


def test_the_cache_folder_is_ignored_by_git_and_safe_to_delete(tmp_path, cli, parses):
    import shutil

    (tmp_path / "a.py").write_text(NEEDS_FIX)
    first = cli("check", ".")
    folder = tmp_path / ".torchfix_cache"
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    shutil.rmtree(folder)
    again = cli("check", ".")
    assert again.stdout == first.stdout and len(parses) == 2


def test_a_corrupt_entry_is_a_miss_not_an_error(tmp_path, cli, parses):
    (tmp_path / "a.py").write_text(NEEDS_FIX)
    first = cli("check", ".")
    for entry in (tmp_path / ".torchfix_cache").glob("*/*"):
        entry.write_text("{not json")
    again = cli("check", ".")
    assert again.stdout == first.stdout and len(parses) == 2


def test_files_that_get_rewritten_are_always_processed(tmp_path, cli, parses):
    (tmp_path / "a.py").write_text(NEEDS_FIX)
    cli("apply", "--dry-run", ".")
    cli("apply", "--dry-run", ".")
    assert len(parses) == 2


@pytest.mark.parametrize("entry", [
    '{"format": 1}',  # the KeyError: 'changes' of the issue
    '[1, 2, 3]',
    '"a string"',
    '{"format": 1, "changes": [["x"]], "error": null, "parsed": true, "skipped": null,'
    ' "encoding": "utf-8"}',
    '{"format": 1, "changes": [], "error": {"bogus": 1}, "parsed": true, "skipped": null,'
    ' "encoding": "utf-8"}',
    '{"format": 1, "changes": [], "error": null, "parsed": true, "skipped": null,'
    ' "encoding": "klingon"}',
    '{"format": 1, "changes": [["strict-load-state-dict", "2", 5, "m", "safe", true]],'
    ' "error": null, "parsed": true, "skipped": null, "encoding": "utf-8"}',
    '{"format": 1, "changes": [["strict-load-state-dict", 2, 5, "m", "risky", true]],'
    ' "error": null, "parsed": true, "skipped": null, "encoding": "utf-8"}',
    "[" * 100_000 + "]" * 100_000,
])
def test_a_malformed_entry_is_a_miss_and_is_rewritten(tmp_path, cli, parses, entry):
    (tmp_path / "a.py").write_text(UNSAFE_ONLY)
    first = cli("check", ".")
    entries = list((tmp_path / ".torchfix_cache").glob("*/*"))
    assert entries
    for path in entries:
        path.write_text(entry)
    again = cli("check", ".")  # a crash would raise here
    assert (again.exit_code, again.stdout) == (first.exit_code, first.stdout)
    assert len(parses) == 2
    cli("check", ".")
    assert len(parses) == 2  # the entry was rewritten: the third run reuses it


def test_a_warm_run_of_many_files_starts_no_pool(tmp_path, cli, monkeypatch):
    # Enough files for a process pool: the cold run uses one, the warm run recalls every
    # result in the main process; after an edit only the edited file is worked on.
    from torchfix.engine import runner

    for index in range(runner.MIN_FILES_FOR_POOL + 4):
        (tmp_path / f"m{index}.py").write_text(NEEDS_FIX if index % 2 else UNSAFE_ONLY)
    pools: list[int] = []
    original = runner._run_in_pool

    def counting(files, *args):
        pools.append(len(files))
        return original(files, *args)

    monkeypatch.setattr(runner, "_run_in_pool", counting)
    cold = cli("check", "--jobs", "2", ".")
    assert pools == [runner.MIN_FILES_FOR_POOL + 4]
    warm = cli("check", "--jobs", "2", ".")
    assert pools == [runner.MIN_FILES_FOR_POOL + 4]  # no second pool
    assert (warm.exit_code, warm.stdout) == (cold.exit_code, cold.stdout)
    (tmp_path / "m0.py").write_text(NEEDS_FIX)
    edited = cli("check", "--jobs", "2", ".")
    assert len(pools) == 1 and "m0.py" in edited.stdout


def test_the_version_check_scan_is_remembered_beside_the_results(tmp_path, cli):
    # A project that declares no torch version: its floor comes from its version checks,
    # whose scan a warm run must not redo; the memo lives in the ignored cache folder.
    (tmp_path / "compat.py").write_text('import torch\nOLD = torch.__version__ < "1.10"\n')
    (tmp_path / "resume.py").write_text("import torch\n\n\ndef load(p):\n"
                                        "    return torch.load(p)\n")
    first = cli("check", "--show-all", ".")
    memo = tmp_path / ".torchfix_cache" / "scan-torch-version-checks.json"
    assert memo.is_file() and (tmp_path / ".torchfix_cache" / ".gitignore").is_file()
    assert "1.9" in first.stdout  # the floor the check shows, in the finding's message
    assert cli("check", "--show-all", ".").stdout == first.stdout


def test_a_warm_run_recalls_results_that_read_other_modules(tmp_path, cli, monkeypatch):
    # Results that looked at another module of the package (the receiver's class) hold
    # `module:` facts; the main process must find those modules again to confirm them,
    # or every such result misses and a pool starts on every warm run.
    from torchfix.engine import runner

    package = tmp_path / "lib" / "rlpkg"  # the source root is neither the root nor src/
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "models.py").write_text(
        "from torch import nn\n\n\nclass Policy(nn.Module):\n    pass\n")
    for index in range(runner.MIN_FILES_FOR_POOL + 2):
        (package / f"resume{index}.py").write_text(
            "from rlpkg.models import Policy\n\n\n"
            "def resume(policy: Policy, ckpt):\n    policy.load_state_dict(ckpt)\n")
    pools: list[int] = []
    original = runner._run_in_pool

    def counting(files, *args):
        pools.append(len(files))
        return original(files, *args)

    monkeypatch.setattr(runner, "_run_in_pool", counting)
    cold = cli("check", "--jobs", "2", ".")
    assert "strict-load-state-dict" in cold.stdout and len(pools) == 1
    warm = cli("check", "--jobs", "2", ".")
    assert len(pools) == 1  # every result recalled: no second pool
    assert (warm.exit_code, warm.stdout) == (cold.exit_code, cold.stdout)
    (package / "models.py").write_text("class Policy:\n    pass\n")  # no longer a module
    changed = cli("check", "--jobs", "2", ".")
    assert "strict-load-state-dict" not in changed.stdout


# -- the project-wide facts of a warm run ---------------------------------------------------

TRAINER = """\
import torch

scaler = torch.cuda.amp.GradScaler()
"""


def _age(folder: Path, seconds_ago: int) -> None:
    """Set every file's modification time well in the past (as for files checked out or
    edited a while ago): a file touched a moment ago is never trusted by a stamp."""
    import os
    import time

    when = time.time_ns() - seconds_ago * 1_000_000_000
    for path in folder.rglob("*"):
        if path.is_file() and ".torchfix_cache" not in path.parts:
            os.utime(path, ns=(when, when))


@pytest.fixture
def worked_out(monkeypatch) -> list[str]:
    """Every project-wide fact a run works out again to confirm a cached result (the
    configured `min-torch` aside: a setting, not read from a file)."""
    from torchfix.model.project import Project

    keys: list[str] = []
    original = Project._digest_now

    def counting(self, key):
        if key.startswith(("project:", "derived:")):
            keys.append(key)
        return original(self, key)

    monkeypatch.setattr(Project, "_digest_now", counting)
    return keys


def test_a_warm_run_of_an_unchanged_project_works_out_no_project_fact(
        tmp_path, cli, parses, worked_out):
    (tmp_path / "trainer.py").write_text(TRAINER)
    (tmp_path / "requirements.txt").write_text("torch==2.0.0\n")
    _age(tmp_path, 3600)
    cold = cli("check", "--show-all", ".")
    assert "needs torch >= 2.3" in cold.stdout  # the floor, read from requirements.txt
    first = cli("check", "--show-all", ".")  # confirms the floor, and remembers it
    # amp-api's decision read whether an upper bound stops torch before 2.4, whether the
    # project replaces torch.cuda.amp (a shim), and the floor
    read = ["derived:amp-api/replaced-amp", "project:torch-ceiling", "project:torch-floor"]
    assert sorted(key.rsplit(":", 1)[0] if key.startswith("derived:") else key
                  for key in worked_out) == read
    assert (tmp_path / ".torchfix_cache" / "facts.json").is_file()
    warm = cli("check", "--show-all", ".")
    assert len(parses) == 1  # the result was recalled ...
    # ... and no fact read again
    assert len(worked_out) == len(read)
    assert warm.stdout == first.stdout == cold.stdout


@pytest.mark.parametrize("recent", [False, True], ids=["edited-long-ago", "edited-just-now"])
def test_a_changed_project_file_is_read_again_even_at_the_same_size(tmp_path, cli, parses,
                                                                      recent):
    (tmp_path / "trainer.py").write_text(TRAINER)
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.0.0\n")
    _age(tmp_path, 3600)
    assert "needs torch >= 2.3" in cli("check", "--show-all", ".").stdout
    assert "needs torch >= 2.3" in cli("check", "--show-all", ".").stdout
    requirements.write_text("torch==2.4.1\n")  # the same size: only its time tells
    if not recent:
        _age(tmp_path, 1800)
    bumped = cli("check", "--show-all", ".")
    assert "needs torch" not in bumped.stdout
    assert len(parses) == 2  # trainer.py decided again: the floor it read changed


def test_a_changed_python_floor_decides_the_saves_again(tmp_path, cli):
    # atomic-save's helper needs Python 3.6: a project declaring 2.7 gets a report; once
    # it declares 3.8 the cached result, which read the old floor, is not reused.
    (tmp_path / "train.py").write_text(
        "import torch\n\n\ndef save_checkpoint(model):\n"
        "    torch.save(model.state_dict(), 'checkpoint.pt')\n")
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nrequires-python = ">=2.7"\n'
                         'dependencies = ["torch>=2.0"]\n')
    old = cli("check", "--show-all", "--select", "atomic-save", ".").stdout
    assert "supports Python 2.7 (pyproject.toml)" in old and "[no automatic fix]" in old
    pyproject.write_text('[project]\nrequires-python = ">=3.8"\n'
                         'dependencies = ["torch>=2.0"]\n')
    new = cli("check", "--show-all", "--select", "atomic-save", ".").stdout
    assert "train.py:5" in new and "Python" not in new and "[no automatic fix]" not in new


def test_a_new_module_changes_a_derived_fact_through_the_memo(tmp_path, cli, worked_out):
    # A derived fact (atomic-save's count of modules that save in a package) is
    # remembered; a module added to the package is a new file, so it is worked out again.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("import torch\n\n\ndef save(m, p):\n"
                                  "    torch.save(m.state_dict(), p)\n")
    _age(tmp_path, 3600)
    cli("check", ".")
    cli("check", ".")
    confirmed = list(worked_out)
    assert any(key.startswith("derived:atomic-save/") for key in confirmed)
    cli("check", ".")
    assert worked_out == confirmed  # nothing worked out again
    (package / "b.py").write_text("import torch\n\n\ndef keep(m, p):\n"
                                  "    torch.save(m, p)\n")
    _age(tmp_path, 1800)
    cli("check", ".")
    assert any(key.startswith("derived:atomic-save/") for key in worked_out)


def test_a_fresh_file_leaves_the_tree_unstamped(tmp_path):
    from torchfix.model.scan_memo import tree_stamp

    (tmp_path / "a.py").write_text("x = 1\n")
    assert tree_stamp(tmp_path) is None  # modified a moment ago: its time may not tell
    _age(tmp_path, 60)
    stamp = tree_stamp(tmp_path)
    assert stamp is not None and stamp == tree_stamp(tmp_path)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "b.py").write_text("y = 2\n")  # hidden folders: no fact there
    assert tree_stamp(tmp_path) == stamp
    (tmp_path / "b.py").write_text("y = 2\n")
    _age(tmp_path, 30)
    assert tree_stamp(tmp_path) not in (None, stamp)


def test_a_cold_run_over_a_folder_remembers_its_project_facts(tmp_path, cli, worked_out):
    # A run over a folder stamps the project first and remembers the project facts its
    # results read: the first re-run confirms them from the memo instead of working
    # them out again (bench/speed.py's warm run was 90% of the cold one without this).
    (tmp_path / "trainer.py").write_text(TRAINER)
    for index in range(20):
        (tmp_path / f"module_{index}.py").write_text(f"VALUE = {index}\n")
    (tmp_path / "requirements.txt").write_text("torch==2.0.0\n")
    _age(tmp_path, 3600)
    cold = cli("check", "--show-all", ".")
    assert (tmp_path / ".torchfix_cache" / "facts.json").is_file()
    worked_out.clear()
    first = cli("check", "--show-all", ".")
    assert worked_out == []
    assert first.stdout == cold.stdout
    (tmp_path / "requirements.txt").write_text("torch==2.4.1\n")  # a changed fact
    _age(tmp_path, 1800)
    assert "needs torch" not in cli("check", "--show-all", ".").stdout
