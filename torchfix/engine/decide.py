"""Deciding a file's changes: CPython's parse and each codemod's `check()`. No libcst.

Shared by `check` (which stops here) and `apply` (which then makes the changes, see
`torchfix.engine.rewrite_file`).
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
import warnings
from pathlib import Path

from torchfix.engine.results import EngineSettings, FileError
from torchfix.model.facts import module_facts
from torchfix.model.project import Project
from torchfix.rewrite.contract import Change, Codemod, FileContext, Finding, applies
from torchfix.rewrite.suppressions import Suppressions

# Messages from CPython's parser that mean "too deep", not "invalid".
_NESTING_ERRORS = (
    "too many nested parentheses",
    "too many levels of indentation",
    "too many statically nested blocks",
    "too deeply nested",
)
TOO_DEEP = "too deeply nested for the parser; skipped"


class FileFailure(Exception):
    """The file cannot be processed; `error` says why (raised, caught per file)."""

    def __init__(self, error: FileError) -> None:
        super().__init__(error.message)
        self.error = error


def internal_error(codemod: str, what: str) -> FileFailure:
    return FileFailure(
        FileError(f"internal error: codemod {codemod} {what}; file left unchanged",
                  internal=True, codemod=codemod)
    )


def codemod_crashed(codemod: str, exc: BaseException) -> FileFailure:
    return FileFailure(
        FileError(f"internal error in codemod {codemod}: {type(exc).__name__}: "
                  f"{first_line(exc)}", internal=True, codemod=codemod)
    )


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def is_deep(tree: ast.AST) -> bool:
    """Whether the tree nests deep enough for a recursive walk of it to reach Python's
    recursion limit (a fifth of it: a walk takes a few frames a level). A RecursionError
    on a shallower tree is a bug in whatever recursed, not a property of the file."""
    limit = sys.getrecursionlimit() // 5
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return False


def decode(data: bytes) -> tuple[str, str] | None:
    """(text, encoding) by the rules CPython follows (BOM, coding cookie, else UTF-8)."""
    try:
        encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
        return data.decode(encoding), encoding
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return None


def python_ast(data: bytes | str, path: Path) -> tuple[ast.Module | None, str | None]:
    """CPython's parse of the file, or why it failed; refuse input too deep to parse.

    Every decision is made on this tree. CPython fails cleanly on very deep nesting,
    where libcst's native parser could exhaust the C stack and kill the process, and
    its error messages are the ones Python users know.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = compile(data, str(path), "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except (RecursionError, MemoryError) as exc:
        raise FileFailure(FileError(TOO_DEEP)) from exc
    except (SyntaxError, ValueError) as exc:
        if any(marker in str(exc) for marker in _NESTING_ERRORS):
            raise FileFailure(FileError(TOO_DEEP)) from exc
        return None, _syntax_error_message(exc, data if isinstance(data, bytes) else None)
    return tree, None


def _syntax_error_message(exc: SyntaxError | ValueError, data: bytes | None = None) -> str:
    if not isinstance(exc, SyntaxError):
        return f"cannot parse: {first_line(exc)}"
    message = exc.msg or "invalid syntax"
    if message.startswith("(unicode error)") and data is not None:
        # CPython counts the position from the start of the token, not of the file.
        decode_error = decode_error_message(data)
        if decode_error is not None:
            return decode_error
    if message.startswith("(unicode error)") or "encoding" in message:
        return f"cannot decode the file: {message.removeprefix('(unicode error) ')}"
    newer = _newer_syntax(exc.text or "", message)
    if exc.lineno:
        return f"syntax error at line {exc.lineno}: {message}{newer}"
    return f"syntax error: {message}{newer}"


# Statements only Python 3.12 parses (PEP 695): `type Alias = ...`, `def f[T](...)`,
# `class C[T]: ...`. Read off the failing line CPython hands back, to say why it fails.
_PEP_695 = re.compile(r"^\s*(?:type\s+\w+\s*(?:\[.*\])?\s*=|(?:async\s+)?def\s+\w+\s*\[|"
                      r"class\s+\w+\s*\[)")


def _newer_syntax(line: str, message: str) -> str:
    """What to add to a syntax error on a line that a newer Python parses (vllm-torchtpu-
    core's `type LayerKVCache = ...`, round 48, under Python 3.11), or may parse: an
    f-string error, where Python 3.12 reads quotes and backslashes inside the braces
    (nvidia-tao-pytorch's `f"{", ".join(archs)}"`, round 49); "" otherwise."""
    if sys.version_info >= (3, 12):
        return ""
    running = f"{sys.version_info.major}.{sys.version_info.minor}"
    if _PEP_695.match(line):
        return (f" (Python 3.12 syntax, which this Python {running} cannot parse: run "
                "torchfix under Python 3.12 or newer)")
    if message.startswith("f-string"):
        return (" (Python 3.12 reads quotes and backslashes inside an f-string's braces, "
                f"which this Python {running} cannot: if the project needs Python 3.12, "
                "run torchfix under it)")
    return ""


def decode_error_message(data: bytes) -> str | None:
    """Where decoding the file fails, as a byte position in the file and a line."""
    try:
        data.decode(tokenize.detect_encoding(io.BytesIO(data).readline)[0])
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return f"cannot decode the file: {exc} (line {line})"
    except (SyntaxError, LookupError):
        pass
    return None


def compile_text(text: str, path: Path) -> tuple[str | None, ast.Module | None]:
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


def decide(
    codemod: type[Codemod], text: str, tree: ast.Module, path: Path,
    settings: EngineSettings, suppressions: Suppressions, project: Project,
) -> tuple[FileContext, list[tuple[Finding, Change]]]:
    """The codemod's findings on `text` (whose tree is `tree`), each with the Change it
    records, in the order of the file; suppressed findings are left out."""
    file = FileContext(path, text, tree, project, project.begin_module(path),
                       settings.options.get(codemod.name, {}), suppressions)
    project.decide_module(file.module.name,
                          lambda: module_facts(file.semantic, str(path), "as decided"),
                          text, lambda where, digest: module_facts(file.semantic, where, digest),
                          root=file.module.source_root)
    try:
        findings = list(codemod.check(file))
    except RecursionError as exc:
        if is_deep(tree):
            raise  # the file is too deep for a recursive walk: reported as such
        raise codemod_crashed(codemod.name, exc) from exc  # a cycle in the codemod's analysis
    except Exception as exc:
        raise codemod_crashed(codemod.name, exc) from exc
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
