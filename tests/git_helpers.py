"""Helpers for the git tests (tests/test_git_*.py): real repositories in temp folders.

Every test runs with its own global git configuration (an identity, `main` as the default
branch) and none of the user's, so results do not depend on the machine.
"""

from __future__ import annotations

import ast
import contextlib
import os
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from torchfix.rewrite import registry
from torchfix.rewrite.contract import AddKeyword, Codemod, FileContext, Finding

USER = "Test User"
EMAIL = "test@example.com"

# Two files the strict-load-state-dict codemod rewrites (one change each), and one it
# leaves alone.
STRICT_FILES = {
    "src/train.py": "import torch\n\n\n"
                    "def resume(model: torch.nn.Module, sd):\n    model.load_state_dict(sd)\n",
    "src/evaluate.py": (
        "from torch import nn\n\n\n"
        "def evaluate(net: nn.Module, ckpt):\n"
        "    net.load_state_dict(ckpt['model'])\n    return net\n"
    ),
    "src/untouched.py": "def add(a, b):\n    return a + b\n",
}


def isolate_git(monkeypatch: pytest.MonkeyPatch, home: Path, identity: bool = True) -> None:
    home.mkdir(parents=True, exist_ok=True)
    config = home / ".gitconfig"
    text = '[init]\n\tdefaultBranch = main\n[protocol "file"]\n\tallow = always\n'
    if identity:
        text += f"[user]\n\tname = {USER}\n\temail = {EMAIL}\n"
    config.write_text(text)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
                 "GIT_COMMITTER_EMAIL", "EMAIL", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(name, raising=False)


def git(cwd: Path, *args: str, input: bytes | None = None, check: bool = True) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, input=input, capture_output=True)
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr.decode()}")
    return done.stdout.decode()


def write_files(root: Path, files: Mapping[str, str | bytes]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)


def make_repo(path: Path, files: Mapping[str, str | bytes] = STRICT_FILES) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q")
    write_files(path, files)
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "initial")
    return path


def make_bare_remote(path: Path, source: Path | None = None) -> Path:
    """A bare repository; with `source`, holding a copy of it (as `origin` would)."""
    if source is None:
        git(path.parent, "init", "-q", "--bare", path.name)
    else:
        git(path.parent, "clone", "-q", "--bare", str(source), path.name)
    return path


def head(repo: Path, revision: str = "HEAD") -> str:
    return git(repo, "rev-parse", revision).strip()


def status(repo: Path) -> str:
    return git(repo, "status", "--porcelain")


@contextlib.contextmanager
def inside(folder: Path) -> Iterator[None]:
    previous = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)


def torchfix(*args: str, cwd: Path) -> Result:
    """Run the CLI in-process, as a user would in `cwd`."""
    from torchfix.cli import app

    with inside(cwd):
        result = CliRunner().invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


class WeightsOnlyForTests(Codemod):
    """Pass `weights_only=True` to `torch.load` (a codemod for the git tests only).

    ## Why
    A second codemod lets the tests check one commit per codemod, also when two
    codemods change the same file.
    """

    name = "test-weights-only"
    summary = "Pass weights_only=True to torch.load."
    triggers = (b"torch.load",)

    @classmethod
    def check(cls, file: FileContext) -> list[Finding]:
        return [
            Finding(call, "pass weights_only=True", edits=(AddKeyword(call, "weights_only",
                                                                      "True"),))
            for call in ast.walk(file.tree)
            if isinstance(call, ast.Call)
            and file.semantic.qualified_name(call.func) == "torch.load"
            and not any(keyword.arg == "weights_only" for keyword in call.keywords)
        ]


def add_test_codemod(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register WeightsOnlyForTests after every real codemod, for this test only."""
    extended = (*registry.entries(), registry.Entry.of(WeightsOnlyForTests))
    monkeypatch.setattr(registry, "entries", lambda: extended)
