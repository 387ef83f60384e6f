"""Making a file's decided changes with libcst, codemod after codemod, and verifying them.

Imported only when new text is wanted (`apply`, `diff`, `--dry-run`): `check` never
needs libcst. Each codemod decides on the current text (after the codemods before it),
its editor makes the applicable changes, and the new text must parse, compile and come
out the same when the codemods run on it again (idempotent); libcst must reproduce the
original file byte for byte. Any failure leaves the file unchanged.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import libcst as cst

from torchfix.engine import line_alignment
from torchfix.engine.decide import (
    FileFailure,
    codemod_crashed,
    compile_text,
    decide,
    decode_error_message,
    first_line,
    internal_error,
)
from torchfix.engine.results import EngineSettings, FileError, FileResult, NewFile
from torchfix.model.project import Project
from torchfix.rewrite.contract import Change, Codemod, CreateFile, FileContext, Finding
from torchfix.rewrite.editing import EditError, focus_on, make_changes
from torchfix.rewrite.statement_lines import statement_lines
from torchfix.rewrite.suppressions import Suppressions, find_suppressions
from torchfix.rewrite.transformer import TransformerSettings


@dataclass
class _Version:
    """One version of the file: its text, CPython's tree and (parsed on demand) libcst's."""

    text: str
    python_tree: ast.Module
    encoding: str
    data: bytes | None = None  # the bytes read, for the original version
    _tree: cst.Module | None = None
    _spans: dict[cst.CSTNode, tuple[int, int]] | None = None
    _spans_done: bool = False

    @property
    def tree(self) -> cst.Module:
        """libcst's tree, parsed the first time an edit needs it."""
        if self._tree is None:
            data = self.data if self.data is not None else self.text.encode(self.encoding)
            self._tree = _parse(data)
        return self._tree

    def statement_spans(self) -> dict[cst.CSTNode, tuple[int, int]] | None:
        if not self._spans_done:
            self._spans = statement_lines(self.tree, self.python_tree)
            self._spans_done = True
        return self._spans


def rewrite(
    data: bytes, text: str, encoding: str, tree: ast.Module, path: Path,
    codemods: Sequence[type[Codemod]], settings: EngineSettings, suppressions: Suppressions,
    project: Project,
) -> FileResult:
    """The file with every applicable change of `codemods` made, in their order."""
    original = _Version(text, tree, encoding, data)
    changes: list[Change] = []
    creates: dict[Path, NewFile] = {}
    edited_lines: list[tuple[str, int, int]] = []
    original_suppressions = suppressions
    current = original
    for codemod in codemods:
        new_text, new_changes, new_files = _decide_and_edit(
            codemod, current, path, settings, suppressions, project)
        for new_file in new_files:
            creates.setdefault(new_file.path, new_file)
        if current is not original:
            new_changes = _map_lines(new_changes, original.text, current.text)
        changes.extend(new_changes)
        if new_text is None or new_text == current.text:
            continue  # no edit was made
        edited_lines.extend(_edited_lines(codemod.name, original.text, current.text, new_text))
        current = _verify_output(new_text, original, encoding, path, codemod.name)
        if suppressions:  # positions now refer to the new text, and so must suppressions
            suppressions = find_suppressions(current.text)

    if current is original:
        return FileResult(path, tuple(changes), parsed=True, encoding=encoding,
                          creates=tuple(creates.values()))
    reproduced = original.tree.bytes
    if reproduced != data:
        line = _first_difference_line(data, reproduced)
        raise FileFailure(
            FileError(f"libcst cannot reproduce this file byte for byte (it differs at line "
                      f"{line}), so it is left unchanged")
        )
    if settings.only is None:  # a chosen few changes leave the others still to make
        _verify_idempotent(current, path, codemods, settings, suppressions, project)
    return FileResult(
        path,
        tuple(changes),
        source=data,
        output=current.text.encode(encoding),
        encoding=encoding,
        parsed=True,
        creates=tuple(creates.values()),
        edited_lines=tuple(edited_lines),
        alone=_made_alone(original, current.text, changes, edited_lines, path, codemods,
                          settings, original_suppressions, project)
        if settings.only is None and settings.fix_edits else (),
    )


def _made_alone(
    original: _Version, new_text: str, changes: Sequence[Change],
    edited_lines: Sequence[tuple[str, int, int]], path: Path,
    codemods: Sequence[type[Codemod]], settings: EngineSettings, suppressions: Suppressions,
    project: Project,
) -> tuple[tuple[tuple[str, int, int], bytes], ...]:
    """The file made with each doubtful change alone (as an editor's quick fix makes
    it): the only sure way to its own edits where the whole file's diff mixes them."""
    from torchfix.output.fixes import doubtful, file_edits

    assert original.data is not None
    edits = file_edits(original.data, new_text.encode(original.encoding), original.encoding)
    by_name = {codemod.name: codemod for codemod in codemods}
    decisions: dict[str, tuple[FileContext, list[tuple[Finding, Change]]]] = {}
    made = []
    for change in doubtful(changes, edits, edited_lines, original.text):
        key = (change.codemod, change.line, change.column)
        codemod = by_name[change.codemod]
        try:
            if codemod.name not in decisions:  # decided once, on the file as read
                decisions[codemod.name] = decide(codemod, original.text, original.python_tree,
                                                 path, settings, suppressions, project)
            file, decided = decisions[codemod.name]
            alone_text, _ = _edit(codemod, original, file, decided,
                                  replace(settings, only=frozenset({key})), suppressions)
        except FileFailure:
            continue  # the change cannot be made alone: it keeps the diff's edits
        if alone_text is not None and alone_text != original.text:
            made.append((key, alone_text.encode(original.encoding)))
    return tuple(made)


def _decide_and_edit(
    codemod: type[Codemod], source: _Version, path: Path, settings: EngineSettings,
    suppressions: Suppressions, project: Project,
) -> tuple[str | None, list[Change], list[NewFile]]:
    """(the new text, or None if nothing is to change; the changes recorded; the files
    the applied changes need created, verified)."""
    file, decided = decide(codemod, source.text, source.python_tree, path, settings,
                           suppressions, project)
    changes = [change for _, change in decided]
    new_text, new_files = _edit(codemod, source, file, decided, settings, suppressions)
    return new_text, changes, new_files


def _edit(
    codemod: type[Codemod], source: _Version, file: FileContext,
    decided: Sequence[tuple[Finding, Change]], settings: EngineSettings,
    suppressions: Suppressions,
) -> tuple[str | None, list[NewFile]]:
    """The decided changes made (those `settings.only` names, when it names some)."""
    applied = [finding for finding, change in decided if change.applied and (
        settings.only is None or (change.codemod, change.line, change.column) in settings.only)]
    if not applied:
        return None, []
    new_files = _new_files(codemod.name, applied, file.path)
    try:
        new_tree = make_changes(
            codemod, source.tree, applied, file,
            TransformerSettings(
                options=settings.options.get(codemod.name, {}),
                suppressions=suppressions,
                fresh_tree=True,  # every tree given to an editor comes straight from the parser
                focus=focus_on(applied, source.statement_spans()),
            ),
        )
    except EditError as exc:
        raise internal_error(codemod.name, str(exc)) from exc
    except (RecursionError, FileFailure):
        raise
    except Exception as exc:
        raise codemod_crashed(codemod.name, exc) from exc
    return new_tree.code, new_files


def _new_files(codemod: str, applied: Sequence[Finding], path: Path) -> list[NewFile]:
    """The files the applied findings ask for (`CreateFile`), each verified: Python must
    parse and compile. One path asked for with two contents is a codemod bug."""
    found: dict[Path, NewFile] = {}
    for finding in applied:
        for edit in finding.edits:
            if not isinstance(edit, CreateFile):
                continue
            target = Path(os.path.abspath(edit.path))
            new_file = NewFile(target, edit.content.encode("utf-8"), codemod)
            if found.setdefault(target, new_file) != new_file:
                raise internal_error(codemod, f"asks for {target.name} with two contents")
    for target, new_file in found.items():
        if target == Path(os.path.abspath(path)):
            raise internal_error(codemod, "asks to create the file it is fixing")
        if target.suffix == ".py":
            error, _ = compile_text(new_file.data.decode("utf-8"), target)
            if error is not None:
                raise internal_error(codemod, f"would create {target.name} with invalid Python: "
                                         f"{error}")
    return list(found.values())


def _parse(data: bytes) -> cst.Module:
    """libcst's tree of text CPython has parsed: a failure is a limit of libcst."""
    try:
        return cst.parse_module(data)
    except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError) as exc:
        if isinstance(exc, cst.ParserSyntaxError):
            # CPython accepted the file, so this is a limit of libcst (e.g. thousands of
            # implicitly concatenated strings), not an error in the user's code.
            raise FileFailure(FileError(
                f"valid Python that libcst cannot parse (it stops at line {exc.raw_line}), "
                "so it is left unchanged"
            )) from exc
        decode_error = decode_error_message(data) if isinstance(exc, UnicodeDecodeError) else None
        raise FileFailure(FileError(decode_error or _libcst_error_message(exc))) from exc


def _libcst_error_message(exc: Exception) -> str:
    if isinstance(exc, cst.ParserSyntaxError):
        reason = str(exc).strip().splitlines()
        detail = next((line for line in reason if line.startswith(("parser error",
                                                                  "tokenizer error"))), "")
        detail = detail.split(": ", 1)[-1] if detail else reason[0] if reason else "invalid"
        if len(detail) > 120:  # "expected one of" lists every token the grammar allows
            detail = detail[:117] + "..."
        return f"syntax error at line {exc.raw_line}, column {exc.raw_column + 1}: {detail}"
    return f"cannot decode the file: {first_line(exc)}"


def _verify_output(
    text: str, original: _Version, encoding: str, path: Path, codemod: str
) -> _Version:
    """The output of one codemod must parse again, and compile if the input did."""
    try:
        tree = cst.parse_module(text.encode(encoding))
    except Exception as exc:
        raise internal_error(
            codemod, f"produced code that does not parse: {first_line(exc)}") from exc
    error, python_tree = compile_text(text, path)
    if python_tree is None:
        raise internal_error(codemod, f"produced invalid Python: {error}")
    return _Version(text, python_tree, encoding, _tree=tree)


def _verify_idempotent(
    source: _Version,
    path: Path,
    codemods: Sequence[type[Codemod]],
    settings: EngineSettings,
    suppressions: Suppressions,
    project: Project,
) -> None:
    """Running the same codemods on the output must change nothing."""
    for codemod in codemods:
        new_text, _, _ = _decide_and_edit(codemod, source, path, settings, suppressions,
                                          project)
        if new_text is not None and new_text != source.text:
            raise internal_error(codemod.name, "is not idempotent: a second run changes "
                                               "the output again")


def _line_mapping(original: str, current: str) -> dict[int, int]:
    """Line of `current` → line of `original` (a changed line: the first line of the
    stretch it replaced)."""
    mapping: dict[int, int] = {}
    # Linear in the number of lines: difflib is quadratic on repeated lines.
    for tag, i1, i2, j1, j2 in line_alignment.opcodes(original.splitlines(),
                                                      current.splitlines()):
        for offset, j in enumerate(range(j1, j2)):
            mapping[j + 1] = (i1 + offset + 1) if tag == "equal" else min(i1 + 1, max(i2, 1))
    return mapping


def _edited_lines(codemod: str, original: str, before: str, after: str
                  ) -> list[tuple[str, int, int]]:
    """The stretches of lines of `original` that one codemod's edit of `before` into
    `after` touched, as (codemod, first, last)."""
    mapping = _line_mapping(original, before) if before is not original else None
    found = []
    for tag, i1, i2, _, _ in line_alignment.opcodes(before.splitlines(), after.splitlines()):
        if tag == "equal":
            continue
        first, last = i1 + 1, max(i2, i1 + 1)  # an insertion touches the line it precedes
        if mapping is not None:
            first, last = mapping.get(first, first), mapping.get(last, last)
        found.append((codemod, first, max(first, last)))
    return found


def _map_lines(changes: list[Change], original: str, current: str) -> list[Change]:
    """Re-express positions in `current` (after earlier codemods) as lines of `original`."""
    if not changes:
        return changes
    mapping = _line_mapping(original, current)
    return [
        replace(c, line=mapping.get(c.line, c.line),
                end_line=None if c.end_line is None else mapping.get(c.end_line, c.end_line))
        for c in changes
    ]


def _first_difference_line(data: bytes, reproduced: bytes) -> int:
    """The line (1-based) of the first byte where libcst's reproduction differs (a form
    feed at the start of a line, or a CRLF file ending in a whitespace-only line, whose
    line break libcst drops)."""
    index = next((i for i, (a, b) in enumerate(zip(data, reproduced, strict=False)) if a != b),
                 min(len(data), len(reproduced)))
    return data.count(b"\n", 0, index) + 1
