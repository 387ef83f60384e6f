"""The commands as users run them: apply, --dry-run, diff, check, list, explain, options."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from conftest import (
    CLEAN,
    EXPLICIT_STRICT_CONFIG,
    FIXED,
    NEEDS_FIX,
    UNSAFE_ONLY,
    git,
    run_torchfix,
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# -- apply ---------------------------------------------------------------------------------


def test_apply_rewrites_in_place_and_summarises(tmp_path, cli):
    target = write(tmp_path / "train.py", NEEDS_FIX)
    untouched = write(tmp_path / "clean.py", CLEAN)
    before = untouched.stat().st_mtime_ns

    result = cli("apply", ".")

    assert result.exit_code == 0
    assert target.read_text() == FIXED
    assert untouched.stat().st_mtime_ns == before  # unchanged files are never rewritten
    assert "2 files scanned, 1 changed" in result.stderr
    assert "strict-load-state-dict" in result.stderr


def test_apply_leaves_unsafe_fixes_unless_asked(tmp_path, cli):
    target = write(tmp_path / "train.py", UNSAFE_ONLY)

    assert cli("apply", ".").exit_code == 0
    assert target.read_text() == UNSAFE_ONLY

    assert cli("apply", ".", "--unsafe-fixes").exit_code == 0
    assert "strict=True" in target.read_text()


def test_apply_verbose_lists_each_fix(tmp_path, cli):
    write(tmp_path / "train.py", NEEDS_FIX)
    result = cli("apply", "--verbose", ".")
    assert "fixed train.py:5:5 strict-load-state-dict" in result.stderr


def test_dry_run_shows_a_diff_and_writes_nothing(tmp_path, cli):
    target = write(tmp_path / "train.py", NEEDS_FIX)
    before = target.stat().st_mtime_ns

    result = cli("apply", "--dry-run", ".")

    assert result.exit_code == 0
    assert target.read_text() == NEEDS_FIX
    assert target.stat().st_mtime_ns == before
    assert "-    model.load_state_dict(ckpt)" in result.stdout
    assert "+    model.load_state_dict(ckpt, strict=True)" in result.stdout
    assert "1 would change" in result.stderr


def test_a_saved_dry_run_preview_applies_to_a_crlf_file(tmp_path, cli):
    # round 29: previews saved to a file lost CRLF files' carriage returns, so `patch`
    # rejected them; redirected, the preview is the patch's own bytes
    target = tmp_path / "train.py"
    target.write_bytes(NEEDS_FIX.replace("\n", "\r\n").encode())
    preview = cli("apply", "--dry-run", ".")
    assert preview.exit_code == 0
    assert b"+    model.load_state_dict(ckpt, strict=True)\r\n" in preview.stdout_bytes
    applied = subprocess.run(["git", "apply", "-"], cwd=tmp_path, input=preview.stdout_bytes,
                             capture_output=True, timeout=60)
    assert applied.returncode == 0, applied.stderr
    assert target.read_bytes() == FIXED.replace("\n", "\r\n").encode()


# -- diff ----------------------------------------------------------------------------------


def test_diff_is_a_patch_git_apply_accepts(git_repo, cli):
    write(git_repo / "src" / "train.py", NEEDS_FIX)
    write(git_repo / "src" / "eval.py", NEEDS_FIX.replace("resume", "evaluate"))
    git("add", ".", cwd=git_repo)
    git("commit", "-qm", "init", cwd=git_repo)

    result = cli("diff", "src")
    assert result.exit_code == 0
    assert result.stdout.startswith("--- a/src/eval.py\n+++ b/src/eval.py\n")
    patch = git_repo / "fix.patch"
    patch.write_text(result.stdout)

    git("apply", "--check", "fix.patch", cwd=git_repo)
    git("apply", "fix.patch", cwd=git_repo)
    assert (git_repo / "src" / "train.py").read_text() == FIXED


def test_diff_paths_are_relative_to_the_repository_root_from_a_subfolder(git_repo, cli):
    write(git_repo / "pkg" / "sub" / "train.py", NEEDS_FIX)
    os.chdir(git_repo / "pkg" / "sub")
    result = cli("diff", "train.py")
    assert "--- a/pkg/sub/train.py" in result.stdout
    assert "+++ b/pkg/sub/train.py" in result.stdout


def test_diff_marks_a_missing_final_newline(git_repo, cli):
    target = write(git_repo / "train.py", NEEDS_FIX.rstrip("\n"))
    git("add", ".", cwd=git_repo)
    git("commit", "-qm", "init", cwd=git_repo)
    patch = git_repo / "fix.patch"
    patch.write_text(cli("diff", ".").stdout)
    assert "\\ No newline at end of file" in patch.read_text()
    git("apply", "fix.patch", cwd=git_repo)
    assert target.read_text() == FIXED.rstrip("\n")


# -- check ---------------------------------------------------------------------------------


def test_check_lists_findings_and_fails_when_apply_would_change(tmp_path, cli):
    write(tmp_path / "train.py", NEEDS_FIX)
    result = cli("check", ".")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "train.py:5:5 strict-load-state-dict pass strict=True to make the checkpoint "
        "contract explicit"
    ]


def test_check_passes_on_clean_code_and_after_apply(tmp_path, cli):
    write(tmp_path / "clean.py", CLEAN)
    assert cli("check", ".").exit_code == 0
    write(tmp_path / "train.py", NEEDS_FIX)
    assert cli("check", ".").exit_code == 1
    cli("apply", ".")
    assert cli("check", ".").exit_code == 0


def test_check_lists_what_fails_and_summarises_the_rest(tmp_path, cli):
    write(tmp_path / "train.py", NEEDS_FIX + UNSAFE_ONLY.replace("resume", "other"))
    result = cli("check", ".")
    assert result.exit_code == 1
    assert [line.split()[0] for line in result.stdout.splitlines()] == ["train.py:5:5"]
    assert ("1 more finding does not fail the check: 1 unsafe fix (--unsafe-fixes applies "
            "it); --show-all lists it") in result.stderr
    assert "torchfix check" not in result.stderr  # check never points at itself

    listed = cli("check", "--show-all", ".")
    assert listed.stdout.splitlines()[1].endswith("[unsafe fix: --unsafe-fixes applies it]")
    assert "does not fail the check" not in listed.stderr


def test_check_passes_with_only_unsafe_findings_until_they_are_enabled(tmp_path, cli):
    write(tmp_path / "train.py", UNSAFE_ONLY)
    result = cli("check", ".")
    assert (result.exit_code, result.stdout) == (0, "")
    assert "1 more finding does not fail the check" in result.stderr
    enabled = cli("check", "--unsafe-fixes", ".")
    assert enabled.exit_code == 1
    assert enabled.stdout.startswith("train.py:2:5 strict-load-state-dict")


def test_apply_json_reports_what_was_applied(tmp_path, cli):
    write(tmp_path / "train.py", NEEDS_FIX + UNSAFE_ONLY.replace("resume", "other"))
    preview = json.loads(cli("apply", "--dry-run", "--format", "json", ".").stdout)
    assert all("applied" not in f for f in preview["findings"])  # a dry run writes nothing
    document = json.loads(cli("apply", "--format", "json", ".").stdout)
    # `applied` only where a change was written; the unsafe one was not.
    assert [f.get("applied") for f in document["findings"]] == [True, None]
    assert document["summary"]["files_changed"] == 1
    assert (tmp_path / "train.py").read_text().startswith(FIXED)


# -- selection and options -----------------------------------------------------------------


def test_select_and_ignore(tmp_path, cli):
    write(tmp_path / "train.py", NEEDS_FIX)
    assert cli("check", "--select", "strict-load-state-dict", ".").exit_code == 1
    assert cli("check", "--ignore", "strict-load-state-dict", ".").exit_code == 0
    assert cli("check", "--select", "ALL", "--ignore", "strict-load-state-dict",
               ".").exit_code == 0


def test_unknown_codemod_is_a_usage_error_with_a_hint(tmp_path, cli):
    write(tmp_path / "train.py", NEEDS_FIX)
    result = cli("check", "--select", "strict-load-state-dcit", ".")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "torchfix: error: unknown codemod 'strict-load-state-dcit'; "
        "did you mean 'strict-load-state-dict'?"
    )


def test_exclude_glob_skips_matching_files(tmp_path, cli):
    write(tmp_path / "train.py", NEEDS_FIX)
    write(tmp_path / "vendor" / "lib.py", NEEDS_FIX)
    result = cli("check", "--exclude", "vendor/", ".")
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["train.py"]


def test_parallel_jobs_give_the_same_results_in_the_same_order(tmp_path, cli):
    for index in range(24):
        write(tmp_path / f"m{index:02}.py", NEEDS_FIX if index % 3 else CLEAN)
    serial = cli("check", "--jobs", "1", ".")
    parallel = cli("check", "--jobs", "2", ".")
    assert serial.stdout == parallel.stdout
    assert len(serial.stdout.splitlines()) == 16


# -- list, explain, version ----------------------------------------------------------------


def test_list_shows_every_codemod(cli):
    from torchfix.rewrite import registry

    result = cli("list")
    assert result.exit_code == 0
    for codemod in registry.all_codemods():
        assert codemod.name in result.stdout
    assert "on" in result.stdout


def test_explain_prints_the_documentation_with_its_example(cli):
    result = cli("explain", "strict-load-state-dict")
    assert result.exit_code == 0
    assert "Fix safety" in result.stdout
    assert 'self.policy.load_state_dict(ckpt["policy"], strict=True)' in result.stdout


def test_explain_unknown_codemod_is_a_usage_error(cli):
    result = cli("explain", "nope")
    assert result.exit_code == 2
    assert "unknown codemod 'nope'" in result.stderr


def test_version_and_python_dash_m(tmp_path):
    from torchfix import __version__

    result = run_torchfix("--version", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.strip() == f"torchfix {__version__}"


def test_no_files_is_a_quiet_success(tmp_path, cli):
    (tmp_path / "empty").mkdir()
    result = cli("check", "empty")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


def test_missing_path_is_an_error_and_the_others_still_run(tmp_path, cli):
    write(tmp_path / "train.py", NEEDS_FIX)
    result = cli("apply", "train.py", "missing.py")
    assert result.exit_code == 1
    assert "missing.py: error: no such file or directory" in result.stderr
    assert (tmp_path / "train.py").read_text() == FIXED


# -- terminals, pipes and torch ------------------------------------------------------------


def test_progress_bar_shows_on_a_terminal_and_never_in_a_pipe(tmp_path):
    import pty

    for index in range(10):
        write(tmp_path / f"m{index}.py", NEEDS_FIX)
    env = {"TORCHFIX_PROGRESS_DELAY": "0", "COLUMNS": "100"}

    piped = run_torchfix("check", ".", "--jobs", "1", cwd=tmp_path, env=env)
    assert "━" not in piped.stderr and "\x1b[" not in piped.stderr

    controller, terminal = pty.openpty()
    with subprocess.Popen(
        [*_python(), "-m", "torchfix", "check", ".", "--jobs", "1"],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=terminal,
        env={**os.environ, **env},
    ) as process:
        os.close(terminal)
        seen = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        process.wait(timeout=120)
    os.close(controller)
    assert "━".encode() in seen  # rich's bar, drawn on the terminal


def test_torchfix_runs_without_torch_installed(tmp_path):
    write(tmp_path / "train.py", NEEDS_FIX)
    write(tmp_path / "pyproject.toml", EXPLICIT_STRICT_CONFIG)  # read by the subprocess
    blocker = write(
        tmp_path / "block" / "sitecustomize.py",
        "import sys\n"
        "class _NoTorch:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'torch' or name.startswith('torch.'):\n"
        "            raise ImportError('torch is not installed')\n"
        "sys.meta_path.insert(0, _NoTorch())\n",
    )
    env = {"PYTHONPATH": str(blocker.parent)}
    probe = subprocess.run([*_python(), "-c", "import torch"], env={**os.environ, **env},
                           capture_output=True)
    assert probe.returncode != 0  # the blocker works

    result = run_torchfix("apply", ".", cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "train.py").read_text() == FIXED


def _python() -> list[str]:
    import sys

    return [sys.executable]
