"""What a user installs and reads: the wheel's license and typing marker, the project's
one home URL, and help that fits 80 columns."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
import yaml
from typer.main import get_command
from typer.testing import CliRunner

from torchfix import PROJECT_URL
from torchfix.cli import app
from torchfix.rewrite import registry

REPO = Path(__file__).resolve().parent.parent

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(out)],
                   cwd=REPO, check=True, capture_output=True)
    (built,) = out.glob("*.whl")
    return zipfile.ZipFile(built)


def test_the_wheel_carries_the_license_and_the_typing_marker(wheel):
    names = wheel.namelist()
    assert "torchfix/py.typed" in names
    (license_name,) = [name for name in names if name.endswith(".dist-info/licenses/LICENSE")]
    text = wheel.read(license_name).decode()
    assert "BSD 3-Clause License" in text and "Copyright (c) 2026, the torchfix authors" in text
    assert text == (REPO / "LICENSE").read_text()
    (metadata_name,) = [name for name in names if name.endswith(".dist-info/METADATA")]
    metadata = Parser().parsestr(wheel.read(metadata_name).decode())
    assert metadata["License-Expression"] == "BSD-3-Clause"
    assert "Typing :: Typed" in metadata.get_all("Classifier")
    urls = dict(entry.split(", ", 1) for entry in metadata.get_all("Project-URL"))
    assert urls["Homepage"] == urls["Repository"] == PROJECT_URL
    assert all(url.startswith(PROJECT_URL) for url in urls.values())


def test_the_wheel_installs_only_the_torchfix_package(wheel):
    names = set(wheel.namelist())
    top_level = {name.split("/", 1)[0] for name in names}
    assert {name for name in top_level if not name.endswith(".dist-info")} == {"torchfix"}
    for codemod in registry.all_codemods():
        module = codemod.__module__.split(".", 1)[1].replace(".", "/")
        assert f"torchfix/codemods/{module}.py" in names, codemod.name
    assert "torchfix/codemods/deprecations/catalogue.toml" in names  # data, not code
    assert any(name.startswith("torchfix/_golden/amp-api/") for name in names)


def test_the_installed_wheel_checks_and_fixes_without_the_repository(wheel, tmp_path):
    """Unpacked on its own, the codemods are found as torchfix.codemods (never the
    checkout's top-level `codemods`), and a codemod with an editor of its own, named
    relative to its package, makes its change."""
    site = tmp_path / "site"
    wheel.extractall(site)
    project = tmp_path / "project"
    project.mkdir()
    (project / "requirements.txt").write_text("torch>=2.4\n")
    (project / "train.py").write_text(
        "import torch\n\nscaler = torch.cuda.amp.GradScaler()\n")
    script = (
        "import sys\n"
        "sys.argv = ['torchfix', *sys.argv[1:]]\n"
        "from torchfix.cli import main\n"
        "try:\n"
        "    main()\n"
        "finally:\n"
        "    assert 'torchfix.codemods' in sys.modules and 'codemods' not in sys.modules\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, "apply", "--no-record", "--no-cache", "train.py"],
        cwd=project, env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True,
        text=True)
    assert result.returncode == 0, result.stderr
    assert 'torch.amp.GradScaler("cuda")' in (project / "train.py").read_text()


def test_every_mention_of_the_project_url_is_the_one_constant():
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert pyproject["project"]["urls"]["Homepage"] == PROJECT_URL
    pattern = re.compile(r"https://github\.com/[\w.-]+/torchfix\b")
    for name in ("README.md", "pyproject.toml", "action.yml", ".pre-commit-hooks.yaml"):
        found = set(pattern.findall((REPO / name).read_text()))
        assert found <= {PROJECT_URL}, (name, found)
    assert "<org>" not in (REPO / ".pre-commit-hooks.yaml").read_text()


def test_each_codemod_documentation_link_points_at_its_readme_section():
    headings = re.findall(r"^###+ (\S+)$", (REPO / "README.md").read_text(),
                          flags=re.MULTILINE)
    for codemod in registry.all_codemods():
        url = registry.docs_url(codemod.name)
        assert url == f"{PROJECT_URL}#{codemod.name}"
        assert codemod.name in headings


def _commands() -> list[str]:
    return sorted(get_command(app).commands)  # type: ignore[attr-defined]


@pytest.mark.parametrize("command", ["", *_commands()])
def test_help_fits_80_columns_without_cutting_anything(command):
    args = [command, "--help"] if command else ["--help"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in result.stdout
    group = get_command(app)
    target = group.commands[command] if command else group  # type: ignore[attr-defined]
    for parameter in target.params:
        for option in getattr(parameter, "opts", []) + getattr(parameter, "secondary_opts", []):
            if option.startswith("-"):
                assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", result.stdout), (
                    option)


def test_quiet_says_what_it_keeps():
    result = CliRunner().invoke(app, ["check", "--help"], env={"COLUMNS": "200"})
    assert "-q, --quiet" in result.stdout
    assert "Print only findings and errors" in result.stdout


def test_pre_commit_hooks_run_the_installed_command():
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert {hook["id"]: hook["entry"] for hook in hooks} == {
        "torchfix": "torchfix apply --quiet",
        "torchfix-check": "torchfix check --quiet",
    }
    # pre-commit installs a `language: python` hook's repository with pip: the package.
    assert all(hook["language"] == "python" and hook["types"] == ["python"] for hook in hooks)


def test_codemods_import_each_other_relatively():
    """The wheel ships `codemods/` as `torchfix.codemods`: a module that imports
    `codemods.x` works in the checkout and dies with ModuleNotFoundError once installed."""
    import ast

    absolute = []
    for path in sorted((REPO / "codemods").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom)
                     and node.level == 0 else [])
            absolute += [f"{path.relative_to(REPO)}:{node.lineno}" for name in names
                         if name == "codemods" or name.startswith("codemods.")]
    assert absolute == []
