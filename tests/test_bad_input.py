"""Bad input gets one clear line naming the file and the reason; the run goes on."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from torchfix.engine.discovery import SourceFile
from torchfix.engine.results import EngineSettings
from torchfix.engine.runner import run_files

from conftest import EXPLICIT_STRICT_CONFIG, FIXED, NEEDS_FIX

TRIGGER = "\nmodel.load_state_dict(sd)\n"
# One whose fix is safe, so that the file is rewritten (and so parsed by libcst).
SAFE_TRIGGER = "\nimport torch\n\nmodel = torch.nn.Linear(2, 2)\nmodel.load_state_dict(sd)\n"


def apply_with_a_good_neighbour(tmp_path: Path, cli, name: str, content: bytes) -> str:
    """Apply to a bad file and a good one; return the bad file's single error line."""
    bad = tmp_path / name
    bad.write_bytes(content)
    good = tmp_path / "good.py"
    good.write_text(NEEDS_FIX)
    result = cli("apply", ".")
    assert result.exit_code == 1
    assert good.read_text() == FIXED, "the run must go on after a bad file"
    assert bad.read_bytes() == content, "a bad file must never be written"
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert len(errors) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return errors[0]


def test_syntax_error(tmp_path, cli):
    line = apply_with_a_good_neighbour(tmp_path, cli, "broken.py",
                                       b"def resume(model, sd:\n    model.load_state_dict(sd)\n")
    assert line == "broken.py: error: syntax error at line 1: '(' was never closed"


def test_python_2_code(tmp_path, cli):
    line = apply_with_a_good_neighbour(tmp_path, cli, "old.py",
                                       b'print "loading"' + TRIGGER.encode())
    assert line.startswith("old.py: error: syntax error at line 1: Missing parentheses")


def test_newer_python_syntax_says_so(tmp_path, cli):
    # vllm-torchtpu-core (round 48): a PEP 695 alias, which only Python 3.12 parses
    source = b"import torch\n\ntype Cache = torch.Tensor | list[torch.Tensor]\n" + \
        TRIGGER.encode()
    if sys.version_info >= (3, 12):
        (tmp_path / "alias.py").write_bytes(source)
        assert cli("check", ".").stderr.count(": error: ") == 0
        return
    line = apply_with_a_good_neighbour(tmp_path, cli, "alias.py", source)
    running = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert line == ("alias.py: error: syntax error at line 3: invalid syntax (Python 3.12 "
                    f"syntax, which this Python {running} cannot parse: run torchfix under "
                    "Python 3.12 or newer)")


def test_newer_f_string_says_which_python_reads_it(tmp_path, cli):
    # nvidia-tao-pytorch (round 49): PEP 701's quotes inside an f-string's braces
    source = b'archs = ["a"]\nmessage = f"only {", ".join(archs)}"\n' + TRIGGER.encode()
    if sys.version_info >= (3, 12):
        (tmp_path / "fstring.py").write_bytes(source)
        assert cli("check", ".").stderr.count(": error: ") == 0
        return
    line = apply_with_a_good_neighbour(tmp_path, cli, "fstring.py", source)
    assert line.startswith("fstring.py: error: syntax error at line 2: f-string: ")
    assert line.endswith("(Python 3.12 reads quotes and backslashes inside an f-string's "
                         f"braces, which this Python {sys.version_info.major}."
                         f"{sys.version_info.minor} cannot: if the project needs Python "
                         "3.12, run torchfix under it)")


def test_invalid_utf8(tmp_path, cli):
    line = apply_with_a_good_neighbour(tmp_path, cli, "latin.py",
                                       b'name = "caf\xe9"' + TRIGGER.encode())
    assert line.startswith("latin.py: error: cannot decode the file: 'utf-8' codec can't decode")


def test_unknown_declared_encoding(tmp_path, cli):
    line = apply_with_a_good_neighbour(tmp_path, cli, "enc.py",
                                       b"# coding: klingon" + TRIGGER.encode())
    assert line == "enc.py: error: cannot decode the file: unknown encoding: klingon"


def test_binary_content_named_py(tmp_path, cli):
    line = apply_with_a_good_neighbour(tmp_path, cli, "blob.py",
                                       b"\x89PNG\r\n\x1a\n\x00\x00load_state_dict\x00")
    assert line == "blob.py: error: binary file (contains NUL bytes), not Python"


def test_nesting_too_deep_for_the_parser(tmp_path, cli):
    depth = 2000
    source = "x = " + "(" * depth + "1" + ")" * depth + TRIGGER
    line = apply_with_a_good_neighbour(tmp_path, cli, "deep.py", source.encode())
    assert line == "deep.py: error: too deeply nested for the parser; skipped"


@pytest.mark.parametrize("kind", ["binop", "attribute", "unary"])
def test_very_long_chains_do_not_crash_or_hang(tmp_path, cli, kind):
    chain = {
        "binop": "+".join(["1"] * 20000),
        "attribute": "a" + ".b" * 20000,
        "unary": "-" * 20000 + "1",
    }[kind]
    line = apply_with_a_good_neighbour(tmp_path, cli, "chain.py",
                                       f"x = {chain}{TRIGGER}".encode())
    assert line == "chain.py: error: too deeply nested for the parser; skipped"


def test_form_feed_that_libcst_cannot_round_trip(tmp_path, cli):
    line = apply_with_a_good_neighbour(tmp_path, cli, "ff.py",
                                       b"\x0cfrom torch import nn\n\n\n"
                                       b"def resume(model: nn.Module, sd):\n"
                                       b"    model.load_state_dict(sd)\n")
    assert line == ("ff.py: error: libcst cannot reproduce this file byte for byte (it "
                    "differs at line 1), so it is left unchanged")


def test_crlf_file_ending_in_a_blank_line_of_spaces_names_the_line(tmp_path, cli):
    # libauc's chexpert.py: libcst drops a line break before a last line holding a space.
    source = (b"from torch import nn\r\n\r\n\r\n"
              b"def resume(model: nn.Module, sd):\r\n"
              b"    model.load_state_dict(sd)\r\n\r\n \r\n")
    line = apply_with_a_good_neighbour(tmp_path, cli, "crlf.py", source)
    assert line == ("crlf.py: error: libcst cannot reproduce this file byte for byte (it "
                    "differs at line 6), so it is left unchanged")


def test_valid_python_that_libcst_cannot_parse_is_not_called_a_syntax_error(tmp_path, cli):
    # libcst's grammar gives up on thousands of implicitly concatenated strings.
    pieces = "\n".join(f'    "chunk {index} "' for index in range(6000))
    line = apply_with_a_good_neighbour(tmp_path, cli, "blob.py",
                                       f"BLOB = (\n{pieces}\n)\n{SAFE_TRIGGER}".encode())
    assert line == ("blob.py: error: valid Python that libcst cannot parse (it stops at "
                    "line 6003), so it is left unchanged")


def test_form_feeds_elsewhere_are_fine(tmp_path, cli):
    target = tmp_path / "ff.py"
    target.write_bytes(b"import torch\n\x0c\ndef resume(model: torch.nn.Module, sd):\n"
                       b"    model.load_state_dict(sd)\n")
    assert cli("apply", ".").exit_code == 0
    assert target.read_bytes().endswith(b"\x0c\ndef resume(model: torch.nn.Module, sd):\n"
                                        b"    model.load_state_dict(sd, strict=True)\n")


def test_a_file_removed_after_discovery(tmp_path):
    gone = SourceFile(tmp_path / "gone.py", explicit=False)
    settings = EngineSettings(codemods=("strict-load-state-dict",))
    [result] = list(run_files([gone], settings, jobs=1))
    assert result.error is not None
    assert result.error.message == "no such file (removed during the run?)"


def test_a_folder_named_like_a_python_file(tmp_path, cli):
    (tmp_path / "pkg.py").mkdir()
    (tmp_path / "pkg.py" / "inner.py").write_text(NEEDS_FIX)
    assert cli("apply", ".").exit_code == 0
    assert (tmp_path / "pkg.py" / "inner.py").read_text() == FIXED


def test_a_named_fifo_is_refused_without_blocking(tmp_path, cli):
    os.mkfifo(tmp_path / "pipe.py")
    result = cli("check", "pipe.py")
    assert result.exit_code == 1
    assert "pipe.py: error: not a regular file or directory" in result.stderr


def test_unreadable_file():
    """Run as an unprivileged user where we are root: root reads everything."""
    tmp_path = Path(tempfile.mkdtemp(prefix="torchfix-unreadable-"))
    tmp_path.chmod(0o755)  # pytest's own temp folders are private to their owner
    secret = tmp_path / "secret.py"
    secret.write_text(NEEDS_FIX)
    secret.chmod(0o000)
    good = tmp_path / "good.py"
    good.write_text(NEEDS_FIX)
    # the subprocess does not see the suite's in-process default: the project says it
    (tmp_path / "pyproject.toml").write_text(EXPLICIT_STRICT_CONFIG)
    command = [sys.executable, "-m", "torchfix", "check", "."]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: cannot drop privileges")
        for parent in [*tmp_path.parents, Path(sys.executable).parent]:
            if parent.stat().st_mode & 0o005 != 0o005:
                pytest.skip(f"{parent} is not readable by an unprivileged user")
        command = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    try:
        result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True,
                                env={**os.environ, "HOME": str(tmp_path)}, timeout=120)
    finally:
        shutil.rmtree(tmp_path, ignore_errors=True)
    assert "secret.py: error: cannot read: Permission denied" in result.stderr
    assert "good.py:5:5 strict-load-state-dict" in result.stdout
    assert result.returncode == 1


def test_an_undecodable_byte_is_named_by_its_position_in_the_file(tmp_path, cli):
    data = b'import torch\n# ok\nx = "caf\xe9"\nmodel.load_state_dict(sd)\n'
    (tmp_path / "latin.py").write_bytes(data)
    result = cli("check", "latin.py")
    position = data.index(0xE9)  # 26; CPython's own message says 3, within the string
    assert result.stderr.splitlines()[0] == (
        "latin.py: error: cannot decode the file: 'utf-8' codec can't decode byte 0xe9 in "
        f"position {position}: invalid continuation byte (line 3)"
    )
