"""The GitHub Action (action.yml), its steps run here as GitHub would run them: each
`run:` script under `bash -eo pipefail`, with the step's environment after `${{ }}`
substitution, in a temporary repository, and the torchfix of this environment on PATH
instead of a pip install from the network."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from torchfix import PROJECT_URL

from conftest import CLEAN, EXPLICIT_STRICT_CONFIG, NEEDS_FIX, git

REPO = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((REPO / "action.yml").read_text())


def _substitute(value: str, inputs: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        expression = match.group(1).strip()
        if expression.startswith("inputs."):
            return inputs[expression.removeprefix("inputs.")]
        if expression == "github.action_path":
            return str(REPO)
        raise AssertionError(f"unexpected expression {expression}")

    return re.sub(r"\$\{\{(.*?)\}\}", one, value)


def run_step(name: str, workspace: Path, bin_dir: Path, **given: str) -> tuple[
        subprocess.CompletedProcess[str], dict[str, str]]:
    (step,) = [step for step in ACTION["runs"]["steps"] if step["name"] == name]
    assert step["shell"] == "bash"
    inputs = {key: spec.get("default", "") for key, spec in ACTION["inputs"].items()}
    inputs.update({key.replace("_", "-"): value for key, value in given.items()})
    output_file = workspace.parent / f"github_output_{name.replace(' ', '_')}"
    output_file.write_text("")
    env = {
        **os.environ,
        **{key: _substitute(str(value), inputs) for key, value in step.get("env", {}).items()},
        "GITHUB_OUTPUT": str(output_file),
        "PATH": f"{bin_dir}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}"
                f"{os.environ['PATH']}",
    }
    script = workspace.parent / "step.sh"
    script.write_text(_substitute(step["run"], inputs))
    # How GitHub runs `shell: bash`.
    result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                            cwd=workspace, env=env, capture_output=True, text=True, timeout=300)
    outputs = dict(line.split("=", 1) for line in output_file.read_text().splitlines() if line)
    return result, outputs


@pytest.fixture
def workspace(git_repo: Path) -> Path:
    (git_repo / "src").mkdir()
    (git_repo / "src" / "train.py").write_text(NEEDS_FIX)
    (git_repo / "src" / "clean.py").write_text(CLEAN)
    # the steps run torchfix in a subprocess: the project's configuration sets the option
    (git_repo / "pyproject.toml").write_text(EXPLICIT_STRICT_CONFIG)
    git("add", ".", cwd=git_repo)
    git("commit", "-qm", "init", cwd=git_repo)
    return git_repo


@pytest.fixture
def fake_pip(tmp_path: Path) -> tuple[Path, Path]:
    """A `python` that records what it was asked to do instead of reaching the network."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    log = tmp_path / "python-calls"
    python = bin_dir / "python"
    python.write_text(f'#!/bin/sh\necho "$@" >> {log}\n')
    python.chmod(0o755)
    return bin_dir, log


def test_the_action_is_a_composite_action_with_documented_inputs():
    assert ACTION["runs"]["using"] == "composite"
    assert set(ACTION["inputs"]) == {"args", "output", "sarif-file", "install"}
    assert all(spec.get("description") for spec in ACTION["inputs"].values())
    assert PROJECT_URL in (REPO / "action.yml").read_text()
    assert ACTION["outputs"]["sarif-file"]["value"] == "${{ steps.check.outputs.sarif-file }}"


def test_install_step_installs_the_actions_own_checkout(workspace, fake_pip):
    bin_dir, log = fake_pip
    result, _ = run_step("Install torchfix", workspace, bin_dir)
    assert result.returncode == 0, result.stderr
    assert log.read_text().split() == ["-m", "pip", "install", "--disable-pip-version-check",
                                       str(REPO)]
    assert result.stdout.startswith("torchfix ")  # the command is there afterwards
    log.unlink()
    result, _ = run_step("Install torchfix", workspace, bin_dir, install="false")
    assert result.returncode == 0 and not log.exists()


def test_annotations_mode_fails_with_workflow_commands(workspace, fake_pip):
    result, _ = run_step("torchfix check", workspace, fake_pip[0])
    assert result.returncode == 1
    (line,) = result.stdout.splitlines()
    assert line.startswith("::error file=src/train.py,line=5,endLine=5,col=5,")
    assert "title=torchfix (strict-load-state-dict)::" in line


def test_sarif_mode_writes_the_file_and_names_it(workspace, fake_pip):
    result, outputs = run_step("torchfix check", workspace, fake_pip[0], output="sarif",
                               args="--select strict-load-state-dict src")
    assert result.returncode == 1  # the gate holds; upload-sarif runs on failure() too
    assert outputs == {"sarif-file": "torchfix.sarif"}
    sarif: dict[str, Any] = json.loads((workspace / "torchfix.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    (run,) = sarif["runs"]
    assert [r["ruleId"] for r in run["results"]] == ["strict-load-state-dict"]
    uri = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "src/train.py"

    (workspace / "src" / "train.py").write_text(CLEAN)
    result, _ = run_step("torchfix check", workspace, fake_pip[0], output="sarif",
                         sarif_file="reports/torchfix.sarif")
    assert result.returncode == 0, result.stderr
    report = json.loads((workspace / "reports" / "torchfix.sarif").read_text())
    assert report["runs"][0]["results"] == []


def test_an_unknown_output_is_an_error(workspace, fake_pip):
    result, _ = run_step("torchfix check", workspace, fake_pip[0], output="xml")
    assert result.returncode == 2
    assert result.stdout.startswith("::error title=torchfix::output must be annotations or sarif")


def _readme_yaml(section: str) -> list[Any]:
    text = (REPO / "README.md").read_text()
    start = text.index(f"\n## {section}\n")
    end = text.index("\n## ", start + 1)
    return [yaml.safe_load(block) for block in
            re.findall(r"```yaml\n(.*?)```", text[start:end], flags=re.DOTALL)]


def test_the_readme_workflow_uses_the_actions_real_inputs():
    workflow, gitlab = _readme_yaml("CI: GitHub, GitLab and others")
    steps = workflow["jobs"]["check"]["steps"]
    uses = [step for step in steps if step.get("uses", "").startswith("torchfix/torchfix@")]
    assert uses and all(set(step.get("with", {})) <= set(ACTION["inputs"]) for step in uses)
    assert PROJECT_URL.removeprefix("https://github.com/") == uses[0]["uses"].split("@")[0]
    assert "--output-format gitlab" in " ".join(gitlab["torchfix"]["script"])


def test_the_readme_pre_commit_configurations_work(tmp_path):
    local, remote = _readme_yaml("pre-commit")
    (hook,) = local["repos"][0]["hooks"]
    assert local["repos"][0]["repo"] == "local" and hook["language"] == "system"
    # What pre-commit does with a system hook: run the entry with the staged file names.
    (tmp_path / "train.py").write_text(NEEDS_FIX)
    (tmp_path / "pyproject.toml").write_text(EXPLICIT_STRICT_CONFIG)  # read by the hook
    env = {**os.environ,
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run([*hook["entry"].split(), "train.py"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "train.py").read_text() != NEEDS_FIX  # changed: pre-commit fails
    (repo,) = remote["repos"]
    assert repo["repo"] == PROJECT_URL
    declared = {h["id"] for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    assert {h["id"] for h in repo["hooks"]} <= declared
