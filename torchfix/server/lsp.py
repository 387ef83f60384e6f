"""`torchfix server`: a Language Server over stdio, for editors.

- Diagnostics when a document is opened, changed (after a short pause in typing) and
  saved: one per finding, with the codemod as its code, a link to its documentation,
  and whether the fix is safe, unsafe or missing.
- Code actions: a quick fix per finding (unsafe ones labelled as such), and "Fix all
  safe torchfix findings" (`source.fixAll.torchfix`) as one edit of the whole document,
  exactly what `torchfix apply` writes for the file.

The `[tool.torchfix]` of the document's project applies, as for `torchfix check`.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from torchfix import __version__
from torchfix.output.fixes import file_edits
from torchfix.rewrite import registry
from torchfix.rewrite.changes import Change, Safety
from torchfix.server.documents import Documents

SOURCE = "torchfix"
FIX_ALL = "source.fixAll.torchfix"
# How long typing must pause before a changed document is checked again.
DEBOUNCE_SECONDS = 0.3


class TorchfixServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("torchfix", __version__,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.documents = Documents()
        self.pending: dict[str, asyncio.Task[None]] = {}
        # The findings last published per document, to build its code actions from.
        self.findings: dict[str, tuple[Change, ...]] = {}


server = TorchfixServer()


def _path(uri: str) -> Path:
    return Path(to_fs_path(uri) or uri)


def _utf16(line: str, column: int) -> int:
    """A character column as LSP counts it (UTF-16 code units)."""
    return len(line[:column].encode("utf-16-le")) // 2


def _position(lines: list[str], line: int, column: int) -> types.Position:
    """1-based line, 1-based character column → an LSP position."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return types.Position(line=max(line - 1, 0), character=_utf16(text, max(column - 1, 0)))


def _range(lines: list[str], change: Change) -> types.Range:
    return types.Range(
        start=_position(lines, change.line, change.column),
        end=_position(lines, change.end_line or change.line,
                      change.end_column or change.column),
    )


def _diagnostic(lines: list[str], change: Change) -> types.Diagnostic:
    note = {
        Safety.SAFE: "",
        Safety.UNSAFE: " [unsafe fix available]",
        Safety.MANUAL: " [no automatic fix]",
    }[change.safety]
    return types.Diagnostic(
        range=_range(lines, change),
        message=change.message + note,
        severity=(types.DiagnosticSeverity.Warning if change.safety is not Safety.MANUAL
                  else types.DiagnosticSeverity.Information),
        code=change.codemod,
        code_description=types.CodeDescription(href=registry.docs_url(change.codemod)),
        source=SOURCE,
        data={"line": change.line, "column": change.column, "codemod": change.codemod},
    )


def _publish(ls: TorchfixServer, uri: str) -> None:
    document = ls.workspace.get_text_document(uri)
    checked = ls.documents.check(_path(uri), document.source)
    lines = document.source.split("\n")
    ls.findings[uri] = checked.changes
    diagnostics = [_diagnostic(lines, change) for change in checked.changes]
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        uri=uri, version=document.version, diagnostics=diagnostics))
    if checked.error is not None:
        ls.window_log_message(types.LogMessageParams(
            type=types.MessageType.Warning, message=f"torchfix: {checked.error}"))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: TorchfixServer, params: types.DidOpenTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: TorchfixServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.documents.forget()  # other files (and the configuration) may have changed too
    _publish(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: TorchfixServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    previous = ls.pending.pop(uri, None)
    if previous is not None:
        previous.cancel()

    async def later() -> None:
        await asyncio.sleep(DEBOUNCE_SECONDS)
        _publish(ls, uri)

    ls.pending[uri] = asyncio.ensure_future(later())


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: TorchfixServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.findings.pop(uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]),
)
def code_action(ls: TorchfixServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    document = ls.workspace.get_text_document(uri)
    text, path = document.source, _path(uri)
    lines = text.split("\n")
    wanted = params.context.only
    actions: list[types.CodeAction] = []
    changes = ls.findings.get(uri, ())
    if wanted is None or types.CodeActionKind.QuickFix in wanted:
        for change in changes:
            if change.safety is Safety.MANUAL or not _overlaps(_range(lines, change),
                                                               params.range):
                continue
            fixed = ls.documents.fix(path, text, only=change)
            if fixed is None:
                continue
            unsafe = change.safety is Safety.UNSAFE
            actions.append(types.CodeAction(
                title=f"{'Unsafe fix' if unsafe else 'Fix'}: {change.message} ({change.codemod})",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[_diagnostic(lines, change)],
                is_preferred=not unsafe,
                edit=_edit(uri, document.version, text, fixed),
            ))
    if wanted is None or FIX_ALL in wanted or types.CodeActionKind.Source in wanted:
        fixed = ls.documents.fix(path, text)
        if fixed is not None:
            actions.append(types.CodeAction(
                title="Fix all safe torchfix findings",
                kind=FIX_ALL,
                edit=_whole_document(uri, document.version, text, fixed),
            ))
    return actions


def _overlaps(a: types.Range, b: types.Range) -> bool:
    def key(position: types.Position) -> tuple[int, int]:
        return position.line, position.character

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def _edit(uri: str, version: int | None, old: str, new: str) -> types.WorkspaceEdit:
    """The smallest text edits that turn `old` into `new`."""
    lines = old.split("\n")
    edits = [
        types.TextEdit(
            range=types.Range(start=_position(lines, edit.line, edit.column),
                              end=_position(lines, edit.end_line, edit.end_column)),
            new_text=edit.content,
        )
        for edit in file_edits(old.encode("utf-8"), new.encode("utf-8"), "utf-8")
    ]
    return _workspace_edit(uri, version, edits)


def _whole_document(uri: str, version: int | None, old: str, new: str) -> types.WorkspaceEdit:
    lines = old.split("\n")
    end = types.Position(line=len(lines) - 1, character=_utf16(lines[-1], len(lines[-1])))
    replace_all = types.TextEdit(
        range=types.Range(start=types.Position(line=0, character=0), end=end), new_text=new)
    return _workspace_edit(uri, version, [replace_all])


def _workspace_edit(uri: str, version: int | None,
                    edits: list[types.TextEdit]) -> types.WorkspaceEdit:
    change: Any = types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
        edits=edits,
    )
    return types.WorkspaceEdit(document_changes=[change])


def serve() -> None:
    """Serve over stdio until the client says exit."""
    server.start_io()
