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

    def counting(data, path, settings, project=None):
        seen.append(path)
        return original(data, path, settings, project)

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
