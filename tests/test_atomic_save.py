"""atomic-save beyond its golden cases: the imports it adds keep isort (ruff `I001`)
happy, and `helper = "module"` creates one helper module per package, which every
command treats like a rewritten file (diff, apply and its record, undo, commits)."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from git_helpers import git, isolate_git, make_repo, status, torchfix, write_files

from torchfix.api import fix_source
from torchfix.cli import apply as cli
from torchfix.engine.decide import FileFailure
from torchfix.engine.pipeline import with_new_files
from torchfix.engine.results import FileResult, NewFile
from torchfix.engine.rewrite_file import _new_files
from torchfix.engine.writing import WriteError
from torchfix.golden import IN_SUFFIX, OUT_SUFFIX, discover_cases
from torchfix.rewrite.contract import CreateFile, Finding

HELPER_PATH = "trainlib/_torchfix_atomic_save.py"
PACKAGE = {
    "pyproject.toml": '[tool.torchfix.atomic-save]\nhelper = "module"\n',
    "trainlib/__init__.py": "",
    "trainlib/checkpoints.py": (
        "import os\n\nimport torch\n\n\n"
        "def save_checkpoint(model, folder):\n"
        "    torch.save(model.state_dict(), os.path.join(folder, 'checkpoint.pt'))\n\n\n"
        "def fit(model, folder):\n"
        "    save_checkpoint(model, folder)\n"
    ),
    "trainlib/rl/__init__.py": "",
    "trainlib/rl/agent.py": (
        "import torch\n\n\n"
        "class Agent:\n"
        "    def save_checkpoint(self, path):\n"
        "        torch.save(self.state_dict(), path)\n"
    ),
}


@pytest.fixture(autouse=True)
def _git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path / "home")


def isort_problems(folder: Path) -> str:
    """What ruff's isort check (`I001`, default settings) says about the files in
    `folder`, run from it; "" when they pass."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "I", "--isolated", "--no-cache",
         "--output-format", "concise", "."],
        cwd=folder, capture_output=True, text=True,
    )
    return "" if done.returncode == 0 else done.stdout + done.stderr


# -- isort's order ---------------------------------------------------------------------------


def _case_trees(case, inputs: Path, outputs: Path) -> None:  # type: ignore[no-untyped-def]
    """The case's input files under `inputs`, its expected outputs under `outputs`."""
    if not case.is_folder:
        _, filename = case.directives()
        expected = case.expected_path or case.input_path
        for root, source in ((inputs, case.input_path), (outputs, expected)):
            (root / filename).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, root / filename)
        return
    for path in case.input_path.rglob("*.py"):
        name = path.relative_to(case.input_path).as_posix()
        if name.endswith(IN_SUFFIX):
            plain = name[: -len(IN_SUFFIX)] + ".py"
            targets = [(inputs, plain)]
            if not path.with_name(path.name[: -len(IN_SUFFIX)] + OUT_SUFFIX).is_file():
                targets.append((outputs, plain))
        elif name.endswith(OUT_SUFFIX):
            targets = [(outputs, name[: -len(OUT_SUFFIX)] + ".py")]
        else:
            targets = [(inputs, name), (outputs, name)]
        for root, target in targets:
            (root / target).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, root / target)


def test_rewritten_golden_files_keep_isort_order(tmp_path: Path) -> None:
    """Every golden output of atomic-save whose input passes ruff's I001 passes it too:
    the added imports join their group in sorted order."""
    checked = []
    for case in discover_cases():
        if case.codemod != "atomic-save" or case.expected_path is None:
            continue
        inputs, outputs = tmp_path / case.name / "in", tmp_path / case.name / "out"
        _case_trees(case, inputs, outputs)
        if isort_problems(inputs):
            continue  # not sorted to begin with: nothing to keep
        assert isort_problems(outputs) == "", case.id
        checked.append(case.name)
    assert len(checked) >= 12, checked  # the test cannot pass by checking nothing


IMPORT_LAYOUTS = {
    "no_standard_library_group": (
        '"""Checkpointing."""\n\n# Third-party libraries\nimport numpy as np\nimport torch\n'
    ),
    "standard_library_from_imports_only": (
        "from pathlib import Path\n\nimport torch\n"
    ),
    "between_existing_modules": (
        "import argparse\nimport sys\nfrom dataclasses import dataclass\n\nimport torch\n"
    ),
    "after_future_import": (
        "from __future__ import annotations\n\nimport torch\n"
    ),
    "only_a_future_import_then_try": (
        "from __future__ import annotations\n\ntry:\n    import torch\n"
        "except ImportError:  # optional\n    torch = None\n"
    ),
    "no_module_level_import": (
        "try:\n    import torch\nexcept ImportError:\n    raise SystemExit('needs torch')\n"
    ),
    "comment_above_the_standard_library": (
        "# Standard library\nimport json\n\n# Third party\nimport torch\n"
    ),
    "first_and_local_groups": (
        "import logging\n\nimport torch\n\nimport trainlib.models\n\nfrom . import utils\n"
    ),
    "crlf_newlines": "import sys\r\n\r\nimport torch\r\n",
}
# A saver and its caller: a saver nothing in the project names is an unsafe fix.
SAVE = ("\n\ndef save_checkpoint(model, path):\n    torch.save(model.state_dict(), path)\n"
        "\n\ndef fit(model, path):\n    save_checkpoint(model, path)\n")


@pytest.mark.parametrize("layout", sorted(IMPORT_LAYOUTS))
def test_added_imports_keep_isort_order(layout: str, tmp_path: Path) -> None:
    source = IMPORT_LAYOUTS[layout]
    newline = "\r\n" if "\r\n" in source else "\n"
    source += SAVE.replace("\n", newline)
    module = Path("trainlib") / "checkpointing.py"  # in a package: `trainlib` is first-party
    write_files(tmp_path / "before", {"trainlib/__init__.py": "", str(module): source.encode()})
    assert isort_problems(tmp_path / "before") == ""
    fixed = fix_source(source, path=str(tmp_path / "before" / module), select=["atomic-save"])
    assert "_torchfix_atomic_save(model.state_dict(), path)" in fixed.output
    for name in ("os", "shutil", "tempfile", "typing"):
        assert f"import {name}{newline}" in fixed.output
    write_files(tmp_path / "after", {"trainlib/__init__.py": "",
                                     str(module): fixed.output.encode()})
    assert isort_problems(tmp_path / "after") == "", fixed.output


def test_imports_already_there_are_not_added_again() -> None:
    imports = "import os\nimport shutil\nimport tempfile\nimport typing\n\nimport torch\n"
    output = fix_source(imports + SAVE, select=["atomic-save"]).output
    assert output.count("import os\n") == 1
    assert output.startswith(imports)


# -- one helper module per package -----------------------------------------------------------


def test_module_helper_is_created_once_and_imported_absolutely(tmp_path: Path) -> None:
    write_files(tmp_path, PACKAGE)
    result = torchfix("apply", "--jobs", "1", ".", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    assert f"created {HELPER_PATH} (needed by atomic-save)" in result.stderr
    helper = (tmp_path / HELPER_PATH).read_text()
    assert helper.count("def atomic_save(") == 1 and "Inserted by torchfix" in helper
    for module in ("trainlib/checkpoints.py", "trainlib/rl/agent.py"):
        text = (tmp_path / module).read_text()
        assert "from trainlib._torchfix_atomic_save import atomic_save\n" in text
        assert "atomic_save(" in text and "torch.save" not in text
        assert "def _torchfix_atomic_save" not in text
    assert "torchfix: 4 files scanned, 2 changed" in result.stderr  # the new file is not one
    assert isort_problems(tmp_path) == ""
    again = torchfix("apply", "--jobs", "1", ".", cwd=tmp_path)
    assert again.exit_code == 0 and "0 changed" in again.stderr  # the helper is left alone


def test_module_helper_keeps_the_packages_crlf_line_endings(tmp_path: Path) -> None:
    # carefree-learn's sdist (round 26): every file CRLF, the helper module written LF
    write_files(tmp_path, {name: text.replace(b"\n", b"\r\n") if isinstance(text, bytes)
                           else text.replace("\n", "\r\n").encode()
                           for name, text in PACKAGE.items()})
    result = torchfix("apply", "--jobs", "1", ".", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    helper = (tmp_path / HELPER_PATH).read_bytes()
    assert b"def atomic_save(" in helper
    assert helper.count(b"\n") == helper.count(b"\r\n")


def test_modules_are_not_written_when_their_helper_is_not_created(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_files(tmp_path, PACKAGE)

    def refuse(path: Path, data: bytes, **_options: object) -> None:
        raise WriteError("cannot create: No space left on device")

    monkeypatch.setattr(cli, "create_file", refuse)
    result = torchfix("apply", ".", cwd=tmp_path)
    assert result.exit_code == 1
    assert f"{HELPER_PATH}: error: cannot create: No space left on device" in result.stderr
    assert (f"trainlib/checkpoints.py: error: not written: it needs {HELPER_PATH}, which was "
            "not created") in result.stderr
    for module in ("trainlib/checkpoints.py", "trainlib/rl/agent.py"):
        assert (tmp_path / module).read_text() == PACKAGE[module]


def test_check_and_dry_runs_create_nothing(tmp_path: Path) -> None:
    write_files(tmp_path, PACKAGE)
    assert torchfix("check", ".", cwd=tmp_path).exit_code == 1
    dry = torchfix("apply", "--dry-run", ".", cwd=tmp_path)
    assert f"+++ b/{HELPER_PATH}" in dry.stdout
    assert not (tmp_path / HELPER_PATH).exists()


def test_diff_shows_the_new_file_and_git_apply_creates_it(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", PACKAGE)
    result = torchfix("diff", ".", cwd=repo)
    assert result.exit_code == 0, result.stderr
    patch = result.stdout
    assert f"--- /dev/null\n+++ b/{HELPER_PATH}\n@@ -0,0 +1," in patch
    assert not (repo / HELPER_PATH).exists()
    git(repo, "apply", input=patch.encode())
    elsewhere = tmp_path / "elsewhere"
    write_files(elsewhere, PACKAGE)
    assert torchfix("apply", "--no-record", ".", cwd=elsewhere).exit_code == 0
    for name in (HELPER_PATH, "trainlib/checkpoints.py", "trainlib/rl/agent.py"):
        assert (repo / name).read_bytes() == (elsewhere / name).read_bytes(), name


def test_the_run_record_holds_the_new_file_and_undo_removes_it(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", PACKAGE)
    assert torchfix("apply", ".", cwd=repo).exit_code == 0
    (run,) = (repo / ".torchfix" / "runs").iterdir()
    document = json.loads((run / "run.json").read_text())
    entries = {entry["path"]: entry for entry in document["files"]}
    assert entries[HELPER_PATH]["created"] is True
    assert "created" not in entries["trainlib/checkpoints.py"]
    assert f"--- /dev/null\n+++ b/{HELPER_PATH}\n" in (run / "changes.patch").read_text()
    # `git apply -R` takes the run back too, the new file included.
    git(repo, "apply", "-R", "--check", str(run / "changes.patch"))

    undone = torchfix("undo", cwd=repo)
    assert undone.exit_code == 0, undone.stderr
    assert f"removed {HELPER_PATH}" in undone.stderr
    assert not (repo / HELPER_PATH).exists()
    assert status(repo) == ""  # every file as it was (the record folder is ignored)


def test_undo_refuses_when_the_new_file_changed_since(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", PACKAGE)
    assert torchfix("apply", ".", cwd=repo).exit_code == 0
    helper = repo / HELPER_PATH
    helper.write_text(helper.read_text() + "\n# edited by hand\n")
    undone = torchfix("undo", cwd=repo)
    assert undone.exit_code == 2
    assert "changed since run" in undone.stderr
    assert helper.exists() and "torch.save" not in (repo / "trainlib/checkpoints.py").read_text()


def test_commits_carry_the_new_file(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", PACKAGE)
    result = torchfix("apply", "--commit", ".", cwd=repo)
    assert result.exit_code == 0, result.stderr
    files = git(repo, "show", "--name-status", "--format=", "HEAD").split("\n")
    assert f"A\t{HELPER_PATH}" in files
    assert "M\ttrainlib/checkpoints.py" in files and "M\ttrainlib/rl/agent.py" in files
    message = git(repo, "log", "-1", "--format=%B")
    assert f"- {HELPER_PATH}: new file, needed by these changes" in message
    assert status(repo) == ""


def test_verify_runs_with_the_new_file_and_removes_it_after(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", PACKAGE)
    # Importing the rewritten module needs the new helper module (and torch); -B keeps
    # the check from leaving __pycache__ folders in a repository with no .gitignore.
    check = f"{sys.executable} -B -c 'import trainlib.checkpoints, trainlib.rl.agent'"
    result = torchfix("apply", "--commit", "--verify", check, ".", cwd=repo)
    assert result.exit_code == 0, result.stderr
    assert "verify" in result.stderr and "passed" in result.stderr
    assert (repo / HELPER_PATH).is_file()  # on the new branch, committed
    assert status(repo) == ""


def test_patch_series_carry_the_new_file(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", PACKAGE)
    result = torchfix("apply", "--patch-dir", str(tmp_path / "patches"), ".", cwd=repo)
    assert result.exit_code == 0, result.stderr
    (patch,) = (tmp_path / "patches").iterdir()
    text = patch.read_text()
    assert "new file mode 100644" in text and f"+++ b/{HELPER_PATH}" in text
    assert not (repo / HELPER_PATH).exists()  # no file is touched
    git(repo, "am", "-q", str(patch))
    assert (repo / HELPER_PATH).is_file() and status(repo) == ""


def test_a_foreign_helper_module_blocks_the_rewrite(tmp_path: Path) -> None:
    write_files(tmp_path, {**PACKAGE, HELPER_PATH: "def something_else():\n    pass\n"})
    result = torchfix("check", "--show-all", ".", cwd=tmp_path)
    assert ("not rewritten: trainlib/_torchfix_atomic_save.py exists and does not define "
            "atomic_save [no automatic fix]") in result.stdout
    assert torchfix("apply", ".", cwd=tmp_path).exit_code == 0
    assert "torch.save" in (tmp_path / "trainlib/checkpoints.py").read_text()


def test_a_module_binding_atomic_save_is_left_alone(tmp_path: Path) -> None:
    taken = ("import torch\n\nfrom trainlib.io import atomic_save\n\n\n"
             "def save_checkpoint(state, path):\n    torch.save(state, path)\n")
    write_files(tmp_path, {**PACKAGE, "trainlib/checkpoints.py": taken})
    result = torchfix("check", "--show-all", "trainlib/checkpoints.py", cwd=tmp_path)
    assert "not rewritten: the name atomic_save is already used in this module" in result.stdout


def test_helper_option_is_checked(tmp_path: Path) -> None:
    write_files(tmp_path, {**PACKAGE, "pyproject.toml":
                           '[tool.torchfix.atomic-save]\nhelper = "shared"\n'})
    result = torchfix("check", ".", cwd=tmp_path)
    assert result.exit_code == 2
    assert "helper must be one of 'auto', 'inline', 'module'" in result.stderr


def test_fix_source_names_the_file_it_needs(tmp_path: Path) -> None:
    write_files(tmp_path, PACKAGE)
    path = tmp_path / "trainlib" / "checkpoints.py"
    fixed = fix_source(path.read_text(), path=str(path), select=["atomic-save"],
                       options={"atomic-save": {"helper": "module"}})
    ((new_path, content),) = fixed.new_files
    assert new_path == tmp_path / HELPER_PATH and "def atomic_save(" in content


# -- the engine's new files ------------------------------------------------------------------


def _asking(path: str, new: Path, data: bytes) -> FileResult:
    return FileResult(Path(path), source=b"old", output=b"new",
                      creates=(NewFile(new, data, "atomic-save"),))


def test_a_new_file_asked_for_twice_is_created_once_and_first(tmp_path: Path) -> None:
    new = tmp_path / "pkg" / "_helper.py"
    results = with_new_files([_asking("a.py", new, b"x = 1\n"), _asking("b.py", new,
                                                                       b"x = 1\n")])
    assert [r.created_by for r in results] == ["atomic-save", None, None]
    assert results[0].output == b"x = 1\n" and results[0].source == b""
    assert all(r.error is None for r in results)


def test_a_new_file_that_exists_is_never_replaced(tmp_path: Path) -> None:
    new = tmp_path / "_helper.py"
    new.write_bytes(b"x = 1\n")
    same = with_new_files([_asking("a.py", new, b"x = 1\n")])
    assert [(r.created_by, r.error) for r in same] == [(None, None)]  # there already
    other = with_new_files([_asking("a.py", new, b"x = 2\n")])
    assert len(other) == 1 and other[0].output is None
    assert other[0].error is not None and "exists with other contents" in other[0].error.message


def test_one_new_file_asked_for_with_two_contents_fails_both(tmp_path: Path) -> None:
    new = tmp_path / "_helper.py"
    results = with_new_files([_asking("a.py", new, b"x = 1\n"), _asking("b.py", new,
                                                                       b"x = 2\n")])
    assert [r.error is not None for r in results] == [True, True]
    assert not new.exists()


def test_a_new_file_must_be_valid_python(tmp_path: Path) -> None:
    statement = ast.parse("torch.save(x, p)").body[0]
    finding = Finding(statement, "needs a helper",
                      edits=(CreateFile(tmp_path / "_helper.py", "def broken(:\n"),))
    with pytest.raises(FileFailure, match="with invalid Python"):
        _new_files("atomic-save", [finding], tmp_path / "train.py")


# -- what is not a checkpoint, and what still is ---------------------------------------------


def _rewritten_lines(source: str, path: str = "trainlib/train.py") -> list[int]:
    """The lines of the torch.save calls atomic-save would change, safe ones only."""
    fixed = fix_source(source, path=path, select=["atomic-save"])
    return sorted(f.line for f in fixed.findings if f.applies)


def test_an_evaluation_folder_holds_scores_unless_a_model_is_saved_there() -> None:
    # DETR's main.py (table-transformer, round 36): COCO scores into `eval/latest.pth`
    source = (
        "import torch\n\n\n"
        "def log_scores(evaluator, output_dir, epochs):\n"
        "    for epoch in range(epochs):\n"
        "        torch.save(evaluator.coco_eval['bbox'].eval, output_dir / 'eval' / 'latest.pth')\n"
        "\n\n"
        "def keep_model(model, output_dir, epochs):\n"
        "    for epoch in range(epochs):\n"
        "        torch.save(model.state_dict(), output_dir / 'eval' / 'latest.pth')\n"
    )
    assert _rewritten_lines(source) == [11]


def test_release_files_and_evaluation_snapshots_are_unsafe_fixes() -> None:
    # gan-pytorch's `compress_model` names the file by the md5 of another; dinov2's
    # `do_test` saves the teacher into `eval/<iteration>/` to evaluate it (round 37)
    source = (
        "import os\n\nimport torch\n\n\n"
        "def compress_model(state, filename, arch):\n"
        "    new_filename = arch + '-' + cal_file_md5(filename)[:8] + '.pth'\n"
        "    torch.save(state, os.path.join('checkpoints', new_filename))\n\n\n"
        "def do_test(cfg, model, iteration):\n"
        "    eval_dir = os.path.join(cfg.output_dir, 'eval', str(iteration))\n"
        "    torch.save({'teacher': model.state_dict()}, os.path.join(eval_dir, 'ckpt.pth'))\n"
        "\n\n"
        "def save_checkpoint(model, run_hash):\n"
        "    torch.save(model.state_dict(), f'runs/{run_hash}/checkpoint.pth')\n"
    )
    fixed = fix_source(source, path="trainlib/train.py", select=["atomic-save"],
                       unsafe_fixes=True)
    found = {finding.line: finding for finding in fixed.findings}
    assert found[8].safety == "unsafe" and "(an export" in found[8].message
    assert found[13].safety == "unsafe" and "do_test() saves the weights into an " \
        "evaluation folder" in found[13].message
    assert found[17].safety == "safe"  # a run named by a hash is no release file


def test_checkpoints_near_debug_words_are_still_rewritten() -> None:
    source = (
        "import torch\n\n\n"
        "def dump_checkpoint(state, path):\n"
        "    torch.save(state, path)\n\n\n"  # 5: the name says checkpoint
        "def save_model_checkpoint(model, path, debug):\n"
        "    if not debug:\n"
        "        torch.save(model.state_dict(), path)\n"  # 10: not under `if debug:`
        "    if debug:\n"
        "        print('saving')\n"
        "    else:\n"
        "        torch.save(model.state_dict(), path)\n"  # 14: the other branch
        "    torch.save(model.state_dict(), path + '.last')\n"  # 15: after the `if`
    )
    assert _rewritten_lines(source) == [5, 10, 14, 15]


def test_example_code_is_judged_below_the_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = "import torch\n\n\ndef save_checkpoint(model, path):\n    torch.save(model, path)\n"
    project = tmp_path / "examples" / "project"  # checked out under a folder `examples`
    project.mkdir(parents=True)
    monkeypatch.chdir(project)
    assert _rewritten_lines(source, str(project / "trainlib" / "train.py")) == [5]
    assert _rewritten_lines(source, str(project / "examples" / "train.py")) == []
    assert _rewritten_lines(source, str(project / "scripts" / "demo_train.py")) == []
    # a project's own examples folder (fastmri's `fastmri_examples/`, round 27)
    assert _rewritten_lines(source, str(project / "fastmri_examples" / "train.py")) == []


def test_a_destination_some_caller_gives_a_real_path_is_rewritten() -> None:
    source = (
        "import tempfile\n\nimport torch\n\n\n"
        "def write_checkpoint(state, path):\n"
        "    torch.save(state, path)\n\n\n"  # 7: public, two callers, one not temporary
        "def _write_checkpoint(state, path):\n"
        "    torch.save(state, path)\n\n\n"  # 11: private, a caller gives a real path
        "def run(state, out):\n"
        "    write_checkpoint(state, tempfile.mktemp())\n"
        "    write_checkpoint(state, out)\n"
        "    _write_checkpoint(state, tempfile.mktemp())\n"
        "    _write_checkpoint(state, out)\n"
    )
    assert _rewritten_lines(source) == [7, 11]


# -- the helper's code -------------------------------------------------------------------------


def _helper_sources() -> dict[str, str]:
    from codemods.checkpoints.atomic_save import HELPER_TEMPLATE, helper_module_source

    inline = HELPER_TEMPLATE.format(name="_torchfix_atomic_save", save="torch.save")
    header = "import os\nimport shutil\nimport tempfile\nimport typing\n\nimport torch\n\n\n"
    return {"inline.py": header + inline, "module.py": helper_module_source()}


@pytest.mark.parametrize("line_length", [79, 88, 100, 120])
def test_the_helper_is_left_alone_by_the_formatter(line_length: int, tmp_path: Path) -> None:
    # Projects format at any line length: the helper must not be a diff for any of them.
    write_files(tmp_path, {name: text.encode() for name, text in _helper_sources().items()})
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--isolated", "--no-cache", "--check",
         "--diff", "--line-length", str(line_length), "."],
        cwd=tmp_path, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_helper_is_annotated_and_lint_clean(tmp_path: Path) -> None:
    sources = _helper_sources()
    write_files(tmp_path, {name: text.encode() for name, text in sources.items()})
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--no-cache", "--line-length",
         "79", "--select", "E,W,F,I,B,UP,SIM,RUF,ANN001,ANN002,ANN003,ANN201,ANN202",
         "--target-version", "py38", "--output-format", "concise", "."],
        cwd=tmp_path, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    helper = next(node for node in ast.parse(sources["inline.py"]).body
                  if isinstance(node, ast.FunctionDef))
    arguments = helper.args
    assert helper.returns is not None
    assert all(a.annotation is not None for a in (*arguments.args, arguments.vararg,
                                                  arguments.kwarg) if a is not None)


def _helper_function(template: str) -> Any:
    from codemods.checkpoints.atomic_save import in_quotes

    namespace: dict[str, Any] = {}
    header = "import os\nimport pathlib\nimport shutil\nimport tempfile\nimport typing\n\n" \
             "import torch\n\n\n"
    exec(header + in_quotes(template.format(name="helper", save="torch.save"), '"'),
         namespace)
    return namespace["helper"]


@pytest.mark.parametrize("variant", ["os", "pathlib"])
def test_the_pathlib_helper_does_what_the_os_helper_does(variant: str, tmp_path: Path) -> None:
    # Projects that enable ruff's PTH rules get the pathlib helper: same files, modes,
    # symlinks followed, buffers passed through, nothing left behind.
    import io

    import torch

    from codemods.checkpoints.atomic_save import HELPER_TEMPLATE, HELPER_TEMPLATE_PATHLIB

    helper = _helper_function(HELPER_TEMPLATE_PATHLIB if variant == "pathlib"
                              else HELPER_TEMPLATE)
    state = {"w": torch.arange(4)}
    new = tmp_path / "new.pt"
    helper(state, str(new))
    expected = io.BytesIO()
    torch.save(state, expected)
    reference = tmp_path / "reference" / "new.pt"
    reference.parent.mkdir()
    torch.save(state, reference)
    assert new.read_bytes() == reference.read_bytes()
    assert new.stat().st_mode == reference.stat().st_mode
    old = tmp_path / "old.pt"
    old.write_bytes(b"old")
    old.chmod(0o640)
    helper(state, old)
    assert torch.equal(torch.load(old, weights_only=True)["w"], state["w"])
    assert old.stat().st_mode & 0o7777 == 0o640
    link = tmp_path / "link.pt"
    link.symlink_to(old)
    helper({"w": torch.zeros(2)}, link)
    assert link.is_symlink()
    assert torch.equal(torch.load(old, weights_only=True)["w"], torch.zeros(2))
    buffer = io.BytesIO()
    helper(state, buffer)
    assert buffer.getvalue()[:2] == expected.getvalue()[:2]
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp left


def test_the_pathlib_helper_is_pathlib_clean(tmp_path: Path) -> None:
    from codemods.checkpoints.atomic_save import HELPER_TEMPLATE_PATHLIB, helper_module_source

    header = "import os\nimport pathlib\nimport shutil\nimport tempfile\nimport typing\n\n" \
             "import torch\n\n\n"
    inline = header + HELPER_TEMPLATE_PATHLIB.format(name="_torchfix_atomic_save",
                                                     save="torch.save")
    write_files(tmp_path, {"inline.py": inline.encode(),
                           "module.py": helper_module_source(pathlib=True).encode()})
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--no-cache", "--line-length",
         "79", "--select", "E,W,F,I,B,UP,SIM,RUF,PTH,ANN001,ANN002,ANN003,ANN201,ANN202",
         "--target-version", "py38", "--output-format", "concise", "."],
        cwd=tmp_path, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    formatted = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--isolated", "--no-cache", "--check",
         "--diff", "--line-length", "79", "."],
        cwd=tmp_path, capture_output=True, text=True,
    )
    assert formatted.returncode == 0, formatted.stdout + formatted.stderr


def test_auto_helper_follows_the_package_count_through_the_cache(tmp_path: Path) -> None:
    # "auto": one saving module keeps the inline helper; a second saving module added
    # later changes the package-wide count, so the cached result of the first is not reused.
    files = {name: text for name, text in PACKAGE.items()
             if name not in ("pyproject.toml", "trainlib/rl/agent.py")}
    write_files(tmp_path, {**files, "pyproject.toml": '[project]\nname = "trainlib"\n'})
    first = torchfix("diff", "trainlib/checkpoints.py", cwd=tmp_path)
    assert "def _torchfix_atomic_save(" in first.stdout
    assert "_torchfix_atomic_save.py" not in first.stdout
    write_files(tmp_path, {"trainlib/rl/agent.py": PACKAGE["trainlib/rl/agent.py"]})
    second = torchfix("diff", "trainlib/checkpoints.py", cwd=tmp_path)
    assert "from trainlib._torchfix_atomic_save import atomic_save" in second.stdout
    assert "def _torchfix_atomic_save(" not in second.stdout


def test_a_saver_becomes_safe_once_another_module_calls_it(tmp_path: Path) -> None:
    # torchlaplace's vendored `save_checkpoint` (round 35): nothing names it, so whether a
    # run resumes from its file is unknown; a caller added later in another module
    # changes the project-wide count, and the cached result is not reused
    saver = ("import torch\n\n\ndef save_checkpoint(model, path):\n"
             "    torch.save(model.state_dict(), path)\n")
    write_files(tmp_path, {"trainlib/__init__.py": "", "trainlib/checkpoints.py": saver})
    first = torchfix("check", "--show-all", ".", cwd=tmp_path)
    assert "nothing in the project names save_checkpoint()" in first.stdout
    assert "[unsafe fix: --unsafe-fixes applies it]" in first.stdout
    assert torchfix("apply", ".", cwd=tmp_path).exit_code == 0
    assert (tmp_path / "trainlib/checkpoints.py").read_text() == saver
    write_files(tmp_path, {"trainlib/train.py": (
        "from trainlib.checkpoints import save_checkpoint\n\n\n"
        "def fit(model, path):\n    save_checkpoint(model, path)\n")})
    second = torchfix("check", "--show-all", ".", cwd=tmp_path)
    assert "nothing in the project names" not in second.stdout
    assert "[unsafe fix" not in second.stdout
    assert torchfix("apply", ".", cwd=tmp_path).exit_code == 0
    assert "_torchfix_atomic_save(model.state_dict(), path)" in \
        (tmp_path / "trainlib/checkpoints.py").read_text()


# -- atomic-save and load-weights-only, in one run or one after the other ------------------

FLOWS = (
    "import torch\nfrom torch import nn\n\n\n"
    "class Flow(nn.Module):\n"
    "    def save_checkpoint(self, path):\n"
    "        torch.save(self.state_dict(), path)\n\n"
    "    def load(self, path):\n"
    "        self.load_state_dict(torch.load(path))\n"
)
FLOW_PROJECTS = {  # a declared torch: load-weights-only's fix is safe there
    "inline": {"requirements.txt": "torch>=2.1\n", "flowlib/__init__.py": "",
               "flowlib/core.py": FLOWS},
    "module": {"requirements.txt": "torch>=2.1\n", "flowlib/__init__.py": "",
               "flowlib/core.py": FLOWS,
               "flowlib/utils.py": FLOWS.replace("class Flow", "class Other")},
}


def _summary(output: str) -> list[str]:
    """The per-codemod count lines of a run's summary."""
    return [line.split() for line in output.splitlines()
            if line.startswith(("atomic-save ", "load-weights-only "))]


@pytest.mark.parametrize("layout", sorted(FLOW_PROJECTS))
def test_load_weights_only_decides_the_same_before_and_after_atomic_save(
        layout: str, tmp_path: Path) -> None:
    """normflows' `torch.save(self.state_dict(), path)` and `torch.load(path)`: one run of
    both codemods, or either after the other, gives the same files, and `check` reports
    what the run applies: torchfix's own helper (inline or the package's) is torch.save
    to load-weights-only, never a generic saver."""
    files = FLOW_PROJECTS[layout]
    both = "atomic-save,load-weights-only"
    results: dict[str, dict[str, str]] = {}
    for order in ((both,), ("atomic-save", "load-weights-only"),
                  ("load-weights-only", "atomic-save")):
        root = tmp_path / "-".join(order)
        write_files(root, files)
        if order == (both,):
            check = torchfix("check", "--jobs", "1", "--no-cache", "--select", both, ".",
                             cwd=root)
        for name in order:
            done = torchfix("apply", "--jobs", "1", "--no-cache", "--select", name, ".",
                            cwd=root)
            assert done.exit_code == 0, done.stderr
        if order == (both,):
            assert _summary(done.stderr) == _summary(check.stdout + check.stderr)
            assert [row[0] for row in _summary(done.stderr)] == ["atomic-save",
                                                                 "load-weights-only"]
        results[" then ".join(order)] = {
            path.relative_to(root).as_posix(): path.read_text()
            for path in sorted(root.rglob("*.py"))}
    first = next(iter(results.values()))
    for order, files_after in results.items():
        assert files_after == first, order
    core = first["flowlib/core.py"]
    assert "torch.load(path, weights_only=True)" in core
    assert "atomic_save(self.state_dict(), path)" in core
    again = torchfix("check", "--jobs", "1", "--no-cache", "--show-all", "--select", both,
                     ".", cwd=tmp_path / both)
    assert "no automatic fix" not in again.stdout + again.stderr  # nothing left to a human


@pytest.mark.parametrize(("pyproject", "signature"), [
    # chemprop: black at 100 without magic trailing commas joins the signature
    ("[tool.black]\nline-length = 100\nskip-magic-trailing-comma = true\n",
     ["def atomic_save(obj: object, f: typing.Any, *args: typing.Any, **kwargs: typing.Any)"
      " -> None:"]),
    ("[tool.ruff]\nline-length = 79\n[tool.ruff.format]\nskip-magic-trailing-comma = true\n",
     ["def atomic_save(",
      "    obj: object, f: typing.Any, *args: typing.Any, **kwargs: typing.Any",
      ") -> None:"]),
    ("[tool.black]\nline-length = 100\n",  # the magic trailing comma keeps it split
     ["def atomic_save(", "    obj: object,", "    f: typing.Any,", "    *args: typing.Any,",
      "    **kwargs: typing.Any,", ") -> None:"]),
])
def test_package_helper_signature_follows_the_formatter(
        tmp_path: Path, pyproject: str, signature: list[str]) -> None:
    from codemods.checkpoints.atomic_save import helper_module_source
    from torchfix.model.project import Project

    (tmp_path / "pyproject.toml").write_text(pyproject)
    source = helper_module_source(settings=Project(tmp_path).formatter_settings())
    lines = source.splitlines()
    start = lines.index(next(line for line in lines if line.startswith("def atomic_save(")))
    assert lines[start:start + len(signature)] == signature
    assert lines[start + len(signature)].startswith('    """')
    ast.parse(source)


def test_names_built_from_each_other_are_read_once_each(monkeypatch: pytest.MonkeyPatch) -> None:
    """A function whose every path is built from the two before it (simpletransformers'
    long `train()`, round 14) is decided by reading each binding once, not once per route
    to it: the routes double with every name."""
    from codemods.checkpoints.atomic_save import _Facts

    names = [f"p{index}" for index in range(24)]
    lines = ["    p0 = out_dir", "    p1 = out_dir"]
    lines += [f"    {names[i]} = os.path.join({names[i - 1]}, {names[i - 2]})"
              for i in range(2, len(names))]
    source = ("import os\n\nimport torch\n\n\ndef save_checkpoint(model, out_dir):\n"
              + "\n".join(lines) + f"\n    torch.save(model.state_dict(), {names[-1]})\n")
    calls = 0
    value_kind = _Facts._value_kind

    def counted(self: _Facts, *args: Any) -> Any:
        nonlocal calls
        calls += 1
        return value_kind(self, *args)

    monkeypatch.setattr(_Facts, "_value_kind", counted)
    fixed = fix_source(source, path="trainlib/train.py", select=["atomic-save"])
    assert [f.line for f in fixed.findings if f.applies] == [len(lines) + 7]
    assert calls < 20 * len(names)  # 46,367 calls (the 24th Fibonacci number) before


# -- what round 27 changed --------------------------------------------------------------


def _atomic_safety(root: Path) -> dict[str, str]:
    """path:line → safety of atomic-save's findings under `root`."""
    from torchfix.api import check_paths

    result = check_paths([root], select=["atomic-save"], unsafe_fixes=True)
    assert not result.errors
    return {f"{f.path.relative_to(root).as_posix()}:{f.line}": f.safety
            for f in result.findings}


def test_a_file_the_caller_chooses_is_an_unsafe_fix(tmp_path: Path) -> None:
    # pytorch-ie's `save_model_file(model_file)` and torchdrug's `Engine.save(path)`
    # beside its `load(path)` (round 27): the caller picks the file; a function or a
    # path naming a checkpoint, or an epoch loop, still says what it is
    write_files(tmp_path, {
        "lib/__init__.py": "",
        "lib/model.py": (
            "import torch\n\n\n"
            "class Model(torch.nn.Module):\n"
            "    def save(self, path):\n"
            "        torch.save(self.state_dict(), path)\n\n"
            "    def load(self, path):\n"
            "        self.load_state_dict(torch.load(path, weights_only=True))\n\n\n"
            "def save_checkpoint(model, path):\n"
            "    torch.save(model.state_dict(), path)\n\n\n"
            "def fit(model, path):\n"
            "    save_checkpoint(model, path)\n"
        ),
    })
    assert _atomic_safety(tmp_path) == {"lib/model.py:6": "unsafe", "lib/model.py:13": "safe"}


def test_a_lone_atomic_save_beside_one_left_in_place_is_unsafe(tmp_path: Path) -> None:
    # renate's avalanche updater (round 27): the model written in place, then a state file
    # atomically: the set is as torn as before
    write_files(tmp_path, {
        "train.py": (
            "import torch\n\n\n"
            "def finish(model, optimizer, folder):\n"
            "    torch.save(model.state_dict(), f'{folder}/export.bin')\n"
            "    torch.save(optimizer.state_dict(), f'{folder}/checkpoint.pt')\n\n\n"
            "def main(model, optimizer, folder):\n"
            "    finish(model, optimizer, folder)\n"
        ),
    })
    from torchfix.api import check_paths

    result = check_paths([tmp_path], select=["atomic-save"], unsafe_fixes=True)
    found = {f.line: f for f in result.findings}
    assert found[5].safety == "unsafe" and found[6].safety == "unsafe"
    assert "the save at line 5 of this function" in found[6].message


def test_a_package_under_a_namespace_folder_imports_the_helper_relatively(
        tmp_path: Path) -> None:
    # autogluon.tabular's wheel (round 27): `autogluon/` has no __init__.py and no import
    # names `autogluon.tabular`, so `from tabular._torchfix_atomic_save import ...` would
    # not import
    write_files(tmp_path, {
        "pyproject.toml": '[tool.torchfix.atomic-save]\nhelper = "module"\n',
        "autogluon/tabular/__init__.py": "",
        "autogluon/tabular/models/__init__.py": "",
        "autogluon/tabular/models/callbacks.py": (
            "import torch\n\n\n"
            "def save_checkpoint(model, folder):\n"
            "    torch.save(model.state_dict(), f'{folder}/checkpoint.pt')\n\n\n"
            "def fit(model, folder):\n"
            "    save_checkpoint(model, folder)\n"
        ),
    })
    result = torchfix("apply", "--jobs", "1", ".", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    text = (tmp_path / "autogluon/tabular/models/callbacks.py").read_text()
    assert "from .._torchfix_atomic_save import atomic_save\n" in text
    assert (tmp_path / "autogluon/tabular/_torchfix_atomic_save.py").is_file()
