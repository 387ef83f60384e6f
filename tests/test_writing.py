"""In-place writes keep everything about a file but the edited text."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from torchfix.cli import apply as cli_module
from torchfix.engine.writing import WriteError, write_atomically

from conftest import FIXED, NEEDS_FIX


def test_crlf_files_stay_crlf(tmp_path, cli):
    target = tmp_path / "train.py"
    target.write_bytes(NEEDS_FIX.replace("\n", "\r\n").encode())
    cli("apply", ".")
    assert target.read_bytes() == FIXED.replace("\n", "\r\n").encode()


def test_mixed_newlines_are_kept_line_by_line(tmp_path, cli):
    target = tmp_path / "train.py"
    target.write_bytes(b"import torch\r\n\ndef resume(model: torch.nn.Module, ckpt):\r\n"
                       b"    model.load_state_dict(ckpt)\n")
    cli("apply", ".")
    assert target.read_bytes() == (b"import torch\r\n\n"
                                   b"def resume(model: torch.nn.Module, ckpt):\r\n"
                                   b"    model.load_state_dict(ckpt, strict=True)\n")


def test_utf8_bom_and_declared_encodings_are_kept(tmp_path, cli):
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbf" + NEEDS_FIX.encode())
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + NEEDS_FIX.encode())
    cli("apply", ".")
    assert bom.read_bytes() == b"\xef\xbb\xbf" + FIXED.encode()
    assert latin.read_bytes() == b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + FIXED.encode()


def test_missing_final_newline_and_tabs_are_kept(tmp_path, cli):
    target = tmp_path / "train.py"
    target.write_text("from torch import nn\n\n\n"
                      "def resume(model: nn.Module, ckpt):\n\tmodel.load_state_dict(ckpt)")
    cli("apply", ".")
    assert target.read_text() == (
        "from torch import nn\n\n\n"
        "def resume(model: nn.Module, ckpt):\n\tmodel.load_state_dict(ckpt, strict=True)"
    )


def test_permissions_are_kept_and_no_temp_file_is_left(tmp_path, cli):
    target = tmp_path / "train.py"
    target.write_text(NEEDS_FIX)
    target.chmod(0o751)
    cli("apply", ".")
    assert stat.S_IMODE(target.stat().st_mode) == 0o751
    # The run record (and the cache, where a project-wide scan was remembered) are the
    # only additions, and they hold no temporary file either.
    added = {p.name for p in tmp_path.iterdir()} - {"train.py"}
    assert ".torchfix" in added and added <= {".torchfix", ".torchfix_cache"}
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]


def test_a_symlink_is_written_through_and_stays_a_symlink(tmp_path, cli):
    real = tmp_path / "real.py"
    real.write_text(NEEDS_FIX)
    link = tmp_path / "link.py"
    os.symlink(real, link)
    cli("apply", "link.py")
    assert link.is_symlink()
    assert real.read_text() == FIXED


def test_read_only_files_are_reported_not_written(tmp_path, cli):
    target = tmp_path / "train.py"
    target.write_text(NEEDS_FIX)
    target.chmod(0o444)
    other = tmp_path / "other.py"
    other.write_text(NEEDS_FIX)
    result = cli("apply", ".")
    assert result.exit_code == 1
    assert "train.py: error: file is read-only; not written" in result.stderr
    assert target.read_text() == NEEDS_FIX
    assert other.read_text() == FIXED  # the run went on


def test_a_file_changed_since_it_was_read_is_not_overwritten(tmp_path):
    target = tmp_path / "train.py"
    target.write_text("edited by the user meanwhile\n")
    with pytest.raises(WriteError, match="changed on disk during the run"):
        write_atomically(target, NEEDS_FIX.encode(), FIXED.encode())
    assert target.read_text() == "edited by the user meanwhile\n"


def test_a_file_removed_since_it_was_read_is_not_recreated(tmp_path):
    target = tmp_path / "train.py"
    with pytest.raises(WriteError, match="removed during the run"):
        write_atomically(target, NEEDS_FIX.encode(), FIXED.encode())
    assert not target.exists()


def test_a_failed_write_leaves_the_original_and_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "train.py"
    target.write_text(NEEDS_FIX)

    def refuse(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(WriteError, match="No space left on device"):
        write_atomically(target, NEEDS_FIX.encode(), FIXED.encode())
    assert target.read_text() == NEEDS_FIX
    assert [p.name for p in Path(tmp_path).iterdir()] == ["train.py"]


def test_the_summary_counts_only_what_was_written(tmp_path, cli, monkeypatch):
    # Three files to fix: one read-only, one whose disk is "full", one that is written.
    read_only = tmp_path / "a_read_only.py"
    read_only.write_text(NEEDS_FIX + "    model.load_state_dict(ckpt)\n")
    read_only.chmod(0o444)
    full = tmp_path / "b_full.py"
    full.write_text(NEEDS_FIX)
    (tmp_path / "c_fine.py").write_text(NEEDS_FIX)
    real_write = cli_module.write_atomically

    def disk_full(path, *args, **kwargs):
        if Path(path).name == "b_full.py":
            raise WriteError("cannot write: No space left on device")
        return real_write(path, *args, **kwargs)

    monkeypatch.setattr(cli_module, "write_atomically", disk_full)
    result = cli("apply", "--format", "json", ".")
    assert result.exit_code == 1
    summary = json.loads(result.stdout)["summary"]
    assert (summary["files"], summary["files_changed"], summary["errors"]) == (3, 1, 2)
    assert summary["changes"] == {"strict-load-state-dict": 1}

    (tmp_path / "c_fine.py").write_text(NEEDS_FIX)
    text = cli("apply", ".")
    assert "torchfix: 3 files scanned, 1 changed, 2 errors" in text.stderr
    assert "strict-load-state-dict        1" in text.stderr
