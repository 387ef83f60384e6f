"""`torchfix server` with a real LSP client over stdio: diagnostics, quick fixes, fix-all."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.lsp.client import LanguageClient

from conftest import EXPLICIT_STRICT_CONFIG, run_torchfix

SOURCE = """\
import torch
from torch import nn


def resume(model: nn.Module, optimizer, ckpt, other):
    model.load_state_dict(ckpt["model"])
    other.load_state_dict(ckpt["other"])
    optimizer.load_state_dict(ckpt["optimizer"])
"""


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """What an editor does with a list of text edits (positions in UTF-16 units; ASCII here)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(position: types.Position) -> int:
        return offsets[position.line] + position.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


def edits_of(action: types.CodeAction) -> list[types.TextEdit]:
    assert action.edit is not None and action.edit.document_changes
    return [edit for change in action.edit.document_changes for edit in change.edits]


async def session(tmp_path: Path) -> dict:
    client = LanguageClient("test-client", "1")
    published: asyncio.Queue = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        published.put_nowait(params)

    await client.start_io(sys.executable, "-m", "torchfix", "server", cwd=str(tmp_path))
    path = tmp_path / "train.py"
    uri = path.as_uri()
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=tmp_path.as_uri()))
    client.initialized(types.InitializedParams())
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1,
                                             text=SOURCE)))
    opened = await asyncio.wait_for(published.get(), 60)
    whole = types.Range(start=types.Position(line=0, character=0),
                        end=types.Position(line=len(SOURCE.splitlines()), character=0))
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=whole,
        context=types.CodeActionContext(diagnostics=opened.diagnostics)))
    # An edit in the editor: the line with the safe finding is fixed by hand.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(
            text=SOURCE.replace('ckpt["model"])', 'ckpt["model"], strict=True)'))]))
    changed = await asyncio.wait_for(published.get(), 60)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return {"opened": opened, "actions": actions, "changed": changed}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project the server and `torchfix apply` run in. Both are subprocesses: the
    option that makes `model.load_state_dict(...)` a finding is in its pyproject.toml."""
    project = tmp_path_factory.mktemp("lsp")
    (project / "pyproject.toml").write_text(EXPLICIT_STRICT_CONFIG)
    return project


@pytest.fixture(scope="module")
def lsp(folder: Path) -> dict:
    return asyncio.run(session(folder))


def test_diagnostics_say_codemod_safety_and_where(lsp: dict) -> None:
    diagnostics = lsp["opened"].diagnostics
    assert [(d.code, d.range.start.line, d.range.start.character, d.range.end.character)
            for d in diagnostics] == [("strict-load-state-dict", 5, 4, 40),
                                      ("strict-load-state-dict", 6, 4, 40)]
    safe, unsafe = diagnostics
    assert safe.source == "torchfix" and "[unsafe fix available]" in unsafe.message
    assert safe.code_description.href.endswith("#strict-load-state-dict")
    assert safe.severity == types.DiagnosticSeverity.Warning
    # After the edit only the unsafe finding is left.
    assert [d.range.start.line for d in lsp["changed"].diagnostics] == [6]


def test_quick_fixes_and_fix_all_give_what_apply_writes(lsp: dict, folder: Path) -> None:
    actions = {action.title: action for action in lsp["actions"]}
    safe_fix = next(a for title, a in actions.items() if title.startswith("Fix: "))
    unsafe_fix = next(a for title, a in actions.items() if title.startswith("Unsafe fix: "))
    fix_all = actions["Fix all safe torchfix findings"]
    assert safe_fix.kind == types.CodeActionKind.QuickFix and safe_fix.is_preferred
    assert not unsafe_fix.is_preferred and fix_all.kind == "source.fixAll.torchfix"

    (folder / "train.py").write_text(SOURCE)
    assert run_torchfix("apply", "--no-record", "train.py", cwd=folder).returncode == 0
    applied = (folder / "train.py").read_text()
    assert apply_edits(SOURCE, edits_of(fix_all)) == applied
    assert apply_edits(SOURCE, edits_of(safe_fix)) == applied  # the only safe finding

    (folder / "train.py").write_text(SOURCE)
    run_torchfix("apply", "--no-record", "--unsafe-fixes", "train.py", cwd=folder)
    both = (folder / "train.py").read_text()
    unsafe_only = apply_edits(SOURCE, edits_of(unsafe_fix))
    assert 'other.load_state_dict(ckpt["other"], strict=True)' in unsafe_only
    assert 'model.load_state_dict(ckpt["model"])' in unsafe_only  # only that one finding
    assert apply_edits(unsafe_only, edits_of(safe_fix)) == both
