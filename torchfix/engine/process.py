"""One file through the pipeline: prefilter → parse → codemods → verify → FileResult.

The engine returns plain data and never prints or writes; sinks (writing, diffs, reports,
git) decide what to do with a result. It knows codemods only through the contract in
`torchfix.rewrite.codemod` and the registry.
"""

from __future__ import annotations

import ast
import difflib
import io
import os
import tokenize
import warnings
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import libcst as cst
from libcst.codemod import CodemodContext

from torchfix.engine.discovery import is_generated
from torchfix.model.project import Project
from torchfix.rewrite import registry
from torchfix.rewrite.codemod import CodemodSettings, Focus, TorchfixCodemod
from torchfix.rewrite.contract import Change, Codemod, FileContext, Finding, applies, is_codemod
from torchfix.rewrite.sparse_source import SparseSource, sparse_source
from torchfix.rewrite.statement_lines import statement_lines
from torchfix.rewrite.suppressions import Suppressions, find_suppressions, may_suppress

# Messages from CPython's parser that mean "too deep", not "invalid".
_NESTING_ERRORS = (
    "too many nested parentheses",
    "too many levels of indentation",
    "too many statically nested blocks",
    "too deeply nested",
)
TOO_DEEP = "too deeply nested for the parser; skipped"


@dataclass(frozen=True)
class EngineSettings:
    """Everything that decides what the engine does to a file (and so keys its cache)."""

    codemods: tuple[str, ...]
    unsafe_fixes: bool = False
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    skip_generated: bool = True
    # False for `check`: only the changes are wanted, not the new text. Each codemod then
    # runs on the file as read, and the output is neither generated nor verified.
    produce_output: bool = True


@dataclass(frozen=True)
class FileError:
    """Why a file could not be processed. `internal` errors are torchfix bugs."""

    message: str
    internal: bool = False
    codemod: str | None = None


@dataclass(frozen=True)
class FileResult:
    path: Path
    changes: tuple[Change, ...] = ()
    source: bytes | None = None  # the bytes read; kept only when the file changes
    output: bytes | None = None  # the new bytes when the file changes
    encoding: str = "utf-8"
    error: FileError | None = None
    parsed: bool = False
    skipped: str | None = None  # why the file was passed over, e.g. "generated"
    # The project facts the decisions read (`Project.facts_read`): key → digest. A cached
    # result stands only while each of them is unchanged.
    facts: tuple[tuple[str, str], ...] = ()

    @property
    def changed(self) -> bool:
        return self.output is not None

    def rewrite(self) -> tuple[bytes, bytes] | None:
        """(old bytes, new bytes) when the file changes, else None."""
        if self.source is None or self.output is None:
            return None
        return self.source, self.output

    @property
    def would_change(self) -> bool:
        """Whether applying the fixes changes the file (also when no output was made)."""
        return self.changed or any(change.applied for change in self.changes)


class _FileFailure(Exception):
    def __init__(self, error: FileError) -> None:
        super().__init__(error.message)
        self.error = error


def process_file(path: Path, settings: EngineSettings, *, explicit: bool = False,
                 project: Project | None = None) -> FileResult:
    """Read `path` and run the selected codemods on it. Never raises for bad input."""
    data = read_source(path)
    if isinstance(data, FileError):
        return FileResult(path, error=data)
    return process_bytes(data, path, settings, explicit=explicit, project=project)


def read_source(path: Path) -> bytes | FileError:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return FileError("no such file (removed during the run?)")
    except IsADirectoryError:
        return FileError("is a directory, not a file")
    except OSError as exc:
        return FileError(f"cannot read: {exc.strerror or exc}")


def process_bytes(
    data: bytes, path: Path, settings: EngineSettings, *, explicit: bool = False,
    project: Project | None = None,
) -> FileResult:
    """Run the selected codemods on the contents of a file read from `path`."""
    if settings.skip_generated and not explicit and is_generated(data):
        return FileResult(path, skipped="generated")
    return process_source(data, path, settings, project)


_default_projects: dict[Path, Project] = {}


def default_project(path: Path) -> Project:
    """The project of a file processed on its own: the folder holding it."""
    folder = Path(os.path.abspath(path)).parent
    if folder not in _default_projects:
        _default_projects[folder] = Project(folder)
    return _default_projects[folder]


def process_source(data: bytes, path: Path, settings: EngineSettings,
                   project: Project | None = None) -> FileResult:
    """Run the selected codemods on `data` (the contents of `path`)."""
    if b"\0" in data:
        return FileResult(path, error=FileError("binary file (contains NUL bytes), not Python"))
    codemods = [registry.get(name) for name in settings.codemods]
    triggered = [
        c for c in codemods
        if any(trigger in data for trigger in c.triggers) and not c.skips_path(path)
    ]
    if not triggered:
        return FileResult(path)
    project = project if project is not None else default_project(path)
    project.begin_file(path)
    try:
        result = _rewrite(data, path, triggered, settings, project)
    except _FileFailure as failure:
        result = FileResult(path, error=failure.error, parsed=True)
    except RecursionError:
        result = FileResult(path, error=FileError(TOO_DEEP), parsed=True)
    if project.facts_read:
        result = replace(result, facts=tuple(sorted(project.facts_read.items())))
    return result


AnyCodemod = type[Codemod] | type[TorchfixCodemod]


@dataclass
class _Source:
    """One version of the file: its text, CPython's tree and (parsed on demand) libcst's."""

    text: str
    python_tree: ast.Module | None
    encoding: str = "utf-8"
    data: bytes | None = None  # the bytes read, for the original version
    python_error: str | None = None
    candidates: dict[str, Collection[int] | None] = field(default_factory=dict)
    # When `tree` holds only some statements of the file: CPython's tree cut the same way,
    # and the file's number of each line of `text`.
    cut_python_tree: ast.Module | None = None
    line_numbers: tuple[int, ...] | None = None
    _tree: cst.Module | None = None
    _spans: dict[cst.CSTNode, tuple[int, int]] | None = None
    _spans_done: bool = False

    @property
    def tree(self) -> cst.Module:
        """libcst's tree, parsed the first time an edit (or a libcst codemod) needs it."""
        if self._tree is None:
            data = self.data if self.data is not None else self.text.encode(self.encoding)
            self._tree = _parse(data, self.python_error)
        return self._tree

    def candidate_lines(self, codemod: AnyCodemod) -> Collection[int] | None:
        if self.python_tree is None:
            return None
        if codemod.name not in self.candidates:
            self.candidates[codemod.name] = codemod.candidate_lines(self.python_tree)
        return self.candidates[codemod.name]

    def statement_spans(self) -> dict[cst.CSTNode, tuple[int, int]] | None:
        if not self._spans_done:
            self._spans = statement_lines(self.tree, self.cut_python_tree or self.python_tree)
            self._spans_done = True
        return self._spans

    def focus(self, codemod: AnyCodemod) -> tuple[bool, Focus | None]:
        """(whether the codemod may act here at all, the statements it must visit)."""
        lines = self.candidate_lines(codemod)
        if lines is None:
            return True, None
        if not lines:
            return False, None
        spans = self.statement_spans()
        if spans is None:
            return True, None
        return True, Focus(spans, tuple(sorted(set(lines))))


def _rewrite(
    data: bytes, path: Path, codemods: Sequence[AnyCodemod], settings: EngineSettings,
    project: Project,
) -> FileResult:
    python_tree, python_error = _python_ast(data, path)
    candidates: dict[str, Collection[int] | None] = {}
    if python_tree is not None:
        candidates = {c.name: c.candidate_lines(python_tree) for c in codemods}
        codemods = [c for c in codemods if candidates[c.name] is None or candidates[c.name]]
        if not codemods:
            return FileResult(path)
    if not settings.produce_output:
        return _findings(data, path, codemods, settings, python_tree, python_error, candidates,
                         project)
    decoded = _decode(data) if python_tree is not None else None
    if decoded is not None:
        original = _Source(decoded[0], python_tree, decoded[1], data, python_error, candidates)
    else:  # CPython cannot read it: libcst decides what is wrong, or handles newer syntax
        module = _parse(data, python_error)
        original = _Source(data.decode(module.encoding), python_tree, module.encoding, data,
                           python_error, candidates, _tree=module)
    suppressions = find_suppressions(original.text) if may_suppress(data) else Suppressions()

    changes: list[Change] = []
    current = original
    for codemod in codemods:
        if is_codemod(codemod):
            new_text, new_changes = _decide_and_edit(
                codemod, current, path, settings, suppressions, project)  # type: ignore[arg-type]
        else:
            new_tree, new_changes = _run_codemod(codemod, current, path, settings, suppressions)
            new_text = new_tree.code if any(c.applied for c in new_changes) else None
        if current is not original:
            new_changes = _map_lines(new_changes, original.text, current.text)
        changes.extend(new_changes)
        if new_text is None or new_text == current.text:
            continue  # no edit was made, so nothing in the tree may have changed
        current = _verify_output(new_text, original, current.encoding, path, codemod.name)
        if suppressions:  # positions now refer to the new text, and so must suppressions
            suppressions = find_suppressions(current.text)

    if current is original:
        return FileResult(path, tuple(changes), parsed=True, encoding=original.encoding)
    if original.tree.bytes != data:
        raise _FileFailure(
            FileError("libcst cannot reproduce this file byte for byte (a form feed at the "
                      "start of a line?), so it is left unchanged")
        )
    _verify_idempotent(current, path, codemods, settings, suppressions, project)
    return FileResult(
        path,
        tuple(changes),
        source=data,
        output=current.text.encode(original.encoding),
        encoding=original.encoding,
        parsed=True,
    )


def _file_context(codemod: type[Codemod], source: _Source, path: Path,
                  settings: EngineSettings, project: Project) -> FileContext:
    assert source.python_tree is not None
    return FileContext(path, source.text, source.python_tree, project,
                       project.begin_module(path), settings.options.get(codemod.name, {}))


def _decide(
    codemod: type[Codemod], source: _Source, path: Path, settings: EngineSettings,
    suppressions: Suppressions, project: Project,
) -> tuple[FileContext | None, list[tuple[Finding, Change]]]:
    """The codemod's findings on `source`, each with the Change it records."""
    candidates = source.candidate_lines(codemod)
    if source.python_tree is None or (candidates is not None and not candidates):
        return None, []
    file = _file_context(codemod, source, path, settings, project)
    try:
        findings = list(codemod.check(file))
    except RecursionError:
        raise
    except Exception as exc:
        raise _FileFailure(
            FileError(f"internal error in codemod {codemod.name}: "
                      f"{type(exc).__name__}: {_first_line(exc)}",
                      internal=True, codemod=codemod.name)
        ) from exc
    decided = []
    for finding in findings:
        span = file.span(finding.node)
        if suppressions and suppressions.suppresses(codemod.name, span.line, span.end_line):
            continue
        decided.append((finding, Change(
            codemod.name, span.line, span.column + 1, finding.message, finding.safety,
            applies(finding.safety, settings.unsafe_fixes), span.end_line, span.end_column + 1,
            finding.code or (codemod.codes[0] if len(codemod.codes) == 1 else None),
        )))
    decided.sort(key=lambda pair: (pair[1].line, pair[1].column))
    return file, decided


def _decide_and_edit(
    codemod: type[Codemod], source: _Source, path: Path, settings: EngineSettings,
    suppressions: Suppressions, project: Project,
) -> tuple[str | None, list[Change]]:
    """(the new text, or None if nothing is to change; the changes recorded)."""
    file, decided = _decide(codemod, source, path, settings, suppressions, project)
    applied = [finding for finding, change in decided if change.applied]
    changes = [change for _, change in decided]
    if not applied or file is None:
        return None, changes
    from torchfix.rewrite.editing import EditError, focus_on, make_changes

    try:
        new_tree = make_changes(
            codemod, source.tree, applied, file,
            CodemodSettings(
                unsafe_fixes=settings.unsafe_fixes,
                options=settings.options.get(codemod.name, {}),
                suppressions=suppressions,
                fresh_tree=True,
                focus=focus_on(applied, source.statement_spans()),
                python_tree=source.python_tree,
            ),
        )
    except EditError as exc:
        raise _internal(codemod.name, str(exc)) from exc
    except (RecursionError, _FileFailure):
        raise
    except Exception as exc:
        raise _FileFailure(
            FileError(f"internal error in codemod {codemod.name}: "
                      f"{type(exc).__name__}: {_first_line(exc)}",
                      internal=True, codemod=codemod.name)
        ) from exc
    return new_tree.code, changes


def _findings(
    data: bytes,
    path: Path,
    codemods: Sequence[AnyCodemod],
    settings: EngineSettings,
    python_tree: ast.Module | None,
    python_error: str | None,
    candidates: dict[str, Collection[int] | None],
    project: Project,
) -> FileResult:
    """What the codemods would change (`check`), without making the new text.

    Each codemod looks at the file as read and decides on CPython's tree. Codemods not yet
    moved to that contract run on libcst's tree of only the statements they named as
    candidates (see torchfix.rewrite.sparse_source), or of the whole file.
    """
    decoded = _decode(data) if python_tree is not None else None
    if python_tree is None or decoded is None:
        legacy = [c for c in codemods if not is_codemod(c)]
        return _findings_on_libcst(data, path, legacy, settings, python_tree, python_error,
                                   candidates)
    text, encoding = decoded
    suppressions = find_suppressions(text) if may_suppress(data) else Suppressions()
    source = _Source(text, python_tree, encoding, data, python_error, candidates)
    by_codemod: dict[str, list[Change]] = {}
    on_libcst: list[type[TorchfixCodemod]] = []
    lines: list[str] | None = None
    for codemod in codemods:
        if is_codemod(codemod):
            _, decided = _decide(codemod, source, path, settings,  # type: ignore[arg-type]
                                 suppressions, project)
            by_codemod[codemod.name] = [change for _, change in decided]
            continue
        found = codemod.findings(python_tree)  # type: ignore[union-attr]
        if found is None:
            on_libcst.append(codemod)  # type: ignore[arg-type]
            continue
        lines = lines if lines is not None else _physical_lines(text)
        by_codemod[codemod.name] = [
            change for finding in found
            if (change := finding.change(codemod.name, lines, settings.unsafe_fixes,
                                         suppressions)) is not None
        ]
    if on_libcst:
        result = _findings_on_libcst(data, path, on_libcst, settings, python_tree,
                                     python_error, candidates, (text, encoding, suppressions))
        for change in result.changes:
            by_codemod.setdefault(change.codemod, []).append(change)
    changes = [change for codemod in codemods for change in by_codemod.get(codemod.name, ())]
    return FileResult(path, tuple(changes), parsed=True, encoding=encoding)


def _findings_on_libcst(
    data: bytes,
    path: Path,
    codemods: Sequence[type[TorchfixCodemod]],
    settings: EngineSettings,
    python_tree: ast.Module | None,
    python_error: str | None,
    candidates: dict[str, Collection[int] | None],
    decoded: tuple[str, str, Suppressions] | None = None,
) -> FileResult:
    """Run the codemods on libcst's tree of the statements they need, or of the file.

    `decoded`: the file's text, encoding and suppression comments, when known.
    """
    source: _Source | None = None
    cut = _cut(decoded[0], codemods, python_tree, candidates) if decoded is not None else None
    if cut is not None:
        try:
            module = cst.parse_module(cut.text)
        except Exception:  # the whole file's parse below reports what is wrong, as apply would
            pass
        else:
            source = _Source(cut.text, python_tree, candidates=candidates,
                             cut_python_tree=cut.tree, line_numbers=cut.line_numbers,
                             _tree=module)
    if source is None:
        module = _parse(data, python_error)
        source = _Source(data.decode(module.encoding), python_tree, module.encoding, data,
                         python_error, candidates, _tree=module)
    if decoded is not None:
        _, encoding, suppressions = decoded
    else:
        encoding = module.encoding
        suppressions = find_suppressions(source.text) if may_suppress(data) else Suppressions()
    changes: list[Change] = []
    for codemod in codemods:
        changes.extend(_run_codemod(codemod, source, path, settings, suppressions)[1])
    return FileResult(path, tuple(changes), parsed=True, encoding=encoding)


def _cut(
    text: str,
    codemods: Sequence[type[TorchfixCodemod]],
    python_tree: ast.Module | None,
    candidates: dict[str, Collection[int] | None],
) -> SparseSource | None:
    """The statements of `text` that hold the codemods' candidates, if they can be cut out."""
    if python_tree is None or any(codemod.reads_whole_file for codemod in codemods):
        return None
    lines: set[int] = set()
    for codemod in codemods:
        named = candidates[codemod.name]
        if named is None:
            return None
        lines.update(named)
    return sparse_source(text, python_tree, lines)


def _decode(data: bytes) -> tuple[str, str] | None:
    """(text, encoding) by the rules CPython follows (BOM, coding cookie, else UTF-8)."""
    try:
        encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
        return data.decode(encoding), encoding
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return None


def _physical_lines(text: str) -> list[str]:
    # CPython ends lines at \r\n, \r and \n only; str.splitlines also splits at \f, \v...
    return io.StringIO(text, newline=None).read().split("\n")


def _python_ast(data: bytes | str, path: Path) -> tuple[ast.Module | None, str | None]:
    """CPython's parse of the file, or why it failed; refuse input too deep to parse.

    CPython parses ten times faster than libcst, so codemods use its tree to decide
    where in a file they need to look, if anywhere. It also fails cleanly on very deep
    nesting, where libcst's native parser could exhaust the C stack and kill the process,
    and its error messages are the ones Python users know.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = compile(data, str(path), "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except (RecursionError, MemoryError) as exc:
        raise _FileFailure(FileError(TOO_DEEP)) from exc
    except (SyntaxError, ValueError) as exc:
        if any(marker in str(exc) for marker in _NESTING_ERRORS):
            raise _FileFailure(FileError(TOO_DEEP)) from exc
        return None, _syntax_error_message(exc)  # libcst decides: it may know newer syntax
    return tree, None


def _syntax_error_message(exc: SyntaxError | ValueError) -> str:
    if not isinstance(exc, SyntaxError):
        return f"cannot parse: {_first_line(exc)}"
    message = exc.msg or "invalid syntax"
    if message.startswith("(unicode error)") or "encoding" in message:
        return f"cannot decode the file: {message.removeprefix('(unicode error) ')}"
    if exc.lineno:
        return f"syntax error at line {exc.lineno}: {message}"
    return f"syntax error: {message}"


def _parse(data: bytes, python_error: str | None) -> cst.Module:
    """libcst's tree; on failure, CPython's (friendlier) message when it failed too."""
    try:
        return cst.parse_module(data)
    except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError) as exc:
        if python_error is not None:
            raise _FileFailure(FileError(python_error)) from exc
        if isinstance(exc, cst.ParserSyntaxError):
            # CPython accepted the file, so this is a limit of libcst (e.g. thousands of
            # implicitly concatenated strings), not an error in the user's code.
            raise _FileFailure(FileError(
                f"valid Python that libcst cannot parse (it stops at line {exc.raw_line}), "
                "so it is left unchanged"
            )) from exc
        raise _FileFailure(FileError(_libcst_error_message(exc))) from exc


def _libcst_error_message(exc: Exception) -> str:
    if isinstance(exc, cst.ParserSyntaxError):
        reason = str(exc).strip().splitlines()
        detail = next((line for line in reason if line.startswith(("parser error",
                                                                  "tokenizer error"))), "")
        detail = detail.split(": ", 1)[-1] if detail else reason[0] if reason else "invalid"
        if len(detail) > 120:  # "expected one of" lists every token the grammar allows
            detail = detail[:117] + "..."
        return f"syntax error at line {exc.raw_line}, column {exc.raw_column + 1}: {detail}"
    return f"cannot decode the file: {_first_line(exc)}"


def _run_codemod(
    codemod: type[TorchfixCodemod],
    source: _Source,
    path: Path,
    settings: EngineSettings,
    suppressions: Suppressions,
) -> tuple[cst.Module, list[Change]]:
    may_act, focus = source.focus(codemod)
    if not may_act:
        return source.tree, []
    try:
        instance = codemod(
            CodemodContext(filename=str(path)),
            CodemodSettings(
                unsafe_fixes=settings.unsafe_fixes,
                options=settings.options.get(codemod.name, {}),
                suppressions=suppressions,
                fresh_tree=True,  # every tree given to a codemod comes straight from the parser
                findings_only=not settings.produce_output,
                focus=focus,
                python_tree=source.python_tree,
                line_numbers=source.line_numbers,
            ),
        )
        new_tree = instance.transform_module(source.tree)
    except RecursionError:
        raise
    except Exception as exc:
        raise _FileFailure(
            FileError(f"internal error in codemod {codemod.name}: "
                      f"{type(exc).__name__}: {_first_line(exc)}",
                      internal=True, codemod=codemod.name)
        ) from exc
    return new_tree, instance.changes


def _verify_output(
    text: str, original: _Source, encoding: str, path: Path, codemod: str
) -> _Source:
    """The output of one codemod must parse again, and compile if the input did."""
    try:
        tree = cst.parse_module(text.encode(encoding))
    except Exception as exc:
        raise _internal(codemod, f"produced code that does not parse: {_first_line(exc)}") from exc
    python_tree = None
    if original.python_tree is not None:
        error, python_tree = _compile(text, path)
        if error is not None and _compile(original.text, path)[0] is None:
            raise _internal(codemod, f"produced invalid Python: {error}")
    return _Source(text, python_tree, encoding, _tree=tree)


def _compile(text: str, path: Path) -> tuple[str | None, ast.Module | None]:
    """CPython's full compile catches what parsing alone does not, e.g. a repeated keyword."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = compile(text, str(path), "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
            compile(tree, str(path), "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        detail = f"{exc.msg} (line {exc.lineno})" if isinstance(exc, SyntaxError) else str(exc)
        return detail or type(exc).__name__, None
    return None, tree


def _verify_idempotent(
    source: _Source,
    path: Path,
    codemods: Sequence[AnyCodemod],
    settings: EngineSettings,
    suppressions: Suppressions,
    project: Project,
) -> None:
    """Running the same codemods on the output must change nothing."""
    for codemod in codemods:
        if is_codemod(codemod):
            new_text, _ = _decide_and_edit(codemod, source, path, settings,  # type: ignore[arg-type]
                                           suppressions, project)
        else:
            new_tree, changes = _run_codemod(codemod, source, path, settings, suppressions)
            new_text = new_tree.code if any(change.applied for change in changes) else None
        if new_text is not None and new_text != source.text:
            raise _internal(codemod.name, "is not idempotent: a second run changes the "
                                          "output again")


def _map_lines(changes: list[Change], original: str, current: str) -> list[Change]:
    """Re-express positions in `current` (after earlier codemods) as lines of `original`."""
    if not changes:
        return changes
    matcher = difflib.SequenceMatcher(
        None, original.splitlines(), current.splitlines(), autojunk=False
    )
    mapping: dict[int, int] = {}
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for offset, j in enumerate(range(j1, j2)):
            mapping[j + 1] = (i1 + offset + 1) if tag == "equal" else min(i1 + 1, max(i2, 1))
    return [
        replace(c, line=mapping.get(c.line, c.line),
                end_line=None if c.end_line is None else mapping.get(c.end_line, c.end_line))
        for c in changes
    ]


def _internal(codemod: str, what: str) -> _FileFailure:
    return _FileFailure(
        FileError(f"internal error: codemod {codemod} {what}; file left unchanged",
                  internal=True, codemod=codemod)
    )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
