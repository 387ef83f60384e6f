"""The `Raises` section of a docstring: which style a docstring is written in, and the
docstring with an exception added to its `Raises` section (darglint's `DAR401` and
pydoclint's `DOC501` flag a raise a docstring with sections does not document).

Plain text in, plain text out (the literal as written: prefix, quotes and escapes
included), so that `check()` can tell whether the edit can be made without importing
libcst, and the editor makes exactly that edit on the docstring's node.
"""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

# A Google section header on a line of its own: `Args:`, `Returns:`, ...
_GOOGLE_HEADER = re.compile(
    r"^[ \t]*(?:Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Returns?"
    r"|Yields?|Raises|Attributes|Examples?|Notes?|Warnings?|See Also|Todo):[ \t]*$")
_NUMPY_HEADER = re.compile(
    r"^[ \t]*(?:Parameters|Other Parameters|Returns|Yields|Receives|Raises|Warns"
    r"|Attributes|Methods|See Also|Notes|References|Examples)[ \t]*$")
# A Raises entry's description where the message or condition cannot be written into
# the docstring as they are, or where several checks raise the same exception.
GENERIC_DESCRIPTION = "If an argument is invalid."
_NUMPY_RULE = re.compile(r"^[ \t]*-{3,}[ \t]*$")
_SPHINX_FIELD = re.compile(r"^[ \t]*:(?:param|parameter|arg|argument|key|keyword|type"
                           r"|returns?|rtype|raises?|except|exception|yields?|ytype)\b")


def docstring_style(text: str) -> str | None:
    """"google", "numpy" or "sphinx": the style of the docstring's sections; None when
    it has none (a summary, a description)."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if _NUMPY_HEADER.match(line) and index + 1 < len(lines) and _NUMPY_RULE.match(
                lines[index + 1]):
            return "numpy"
    if any(_GOOGLE_HEADER.match(line) for line in lines):
        return "google"
    if any(_SPHINX_FIELD.match(line) for line in lines):
        return "sphinx"
    return None


def documents(text: str, exception: str) -> bool:
    """Whether the docstring names `exception` among what it raises (any style)."""
    style = docstring_style(text)
    lines = text.split("\n")
    if style == "sphinx":
        return any(re.match(rf"^[ \t]*:(?:raises?|except|exception)[ \t]+{exception}[ \t]*:",
                            line) for line in lines)
    section = _section(lines, style, "Raises") if style is not None else None
    if section is None:
        return False
    start, end = section
    name = re.compile(rf"^[ \t]*(?:\w+\.)*{exception}\b")
    return any(name.match(line) for line in lines[start:end])


def has_raises_section(text: str) -> bool:
    """Whether the docstring documents any exception: a `Raises` section (Google, NumPy)
    or a `:raises` field (Sphinx)."""
    style = docstring_style(text)
    if style == "sphinx":
        return any(re.match(r"^[ \t]*:(?:raises?|except|exception)\b", line)
                   for line in text.split("\n"))
    return style is not None and _section(text.split("\n"), style, "Raises") is not None


def raise_documentation(path: Path) -> list[int]:
    """[documenting, raising] for the module at `path`: of its functions whose docstring
    has sections and whose own body raises an exception (a bare re-raise and
    `NotImplementedError`, an abstract method's stub, aside), how many document what they
    raise (`has_raises_section`). One file's part of `Project.derived`'s
    "assert-to-raise/raises-documented"."""
    try:
        data = path.read_bytes()
    except OSError:
        return [0, 0]
    if b"raise " not in data:
        return [0, 0]
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return [0, 0]
    documenting = raising = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        text = ast.get_docstring(node, clean=False)
        if not text or docstring_style(text) is None or not _raises(node):
            continue
        raising += 1
        documenting += has_raises_section(text)
    return [documenting, raising]


def _raises(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the function's own body (nested definitions aside) raises an exception
    other than NotImplementedError."""
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
                      | ast.Lambda):
            continue
        if isinstance(node, ast.Raise) and node.exc is not None:
            raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            name = raised.attr if isinstance(raised, ast.Attribute) else getattr(
                raised, "id", None)
            if name != "NotImplementedError":
                return True
        pending.extend(ast.iter_child_nodes(node))
    return False


def with_raises(literal: str, entries: list[tuple[str, str]],
                line_length: int | None = None) -> str | None:
    """The docstring literal `literal` with `entries` ((exception, description)) added
    to its `Raises` section (made at its end where it has none), in its own style and
    indentation, one entry an exception, its description wrapped onto lines indented
    one level deeper where it would pass `line_length`; those it documents already are
    skipped. None where that cannot be done safely: not a plain triple-quoted string,
    no sections, the closing quotes not on a line of their own, or a description that
    would need escaping."""
    prefix = literal[:len(literal) - len(literal.lstrip("rRuU"))]
    quote = literal[len(prefix):len(prefix) + 3]
    if prefix.lower() not in ("", "r", "u") or quote not in ('"""', "'''") or not (
            literal.endswith(quote) and len(literal) >= len(prefix) + 6):
        return None
    body = literal[len(prefix) + 3:-3]
    style = docstring_style(body)
    lines = body.split("\n")
    if style is None or len(lines) < 2 or lines[-1].strip():
        return None
    if any("\\" in text or quote[0] in text or "\n" in text or not text.strip()
           for entry in entries for text in entry):
        return None
    described: dict[str, set[str]] = {}
    for name, description in entries:
        described.setdefault(name, set()).add(description)
    # One entry an exception: several checks raising it share the generic description.
    new = [(name, next(iter(texts)) if len(texts) == 1 else GENERIC_DESCRIPTION)
           for name, texts in described.items() if not documents(body, name)]
    if not new:
        return literal
    last = max(index for index, line in enumerate(lines) if line.strip())
    if style == "sphinx":
        fields = [index for index, line in enumerate(lines) if _SPHINX_FIELD.match(line)]
        indent = _indent(lines[fields[-1]])
        added = [text for name, description in new for text in _wrapped(
            f"{indent}:raises {name}: ", description, f"{indent}    ", line_length)]
        return _joined(prefix, quote, lines, last + 1, added)
    headers = [index for index, line in enumerate(lines)
               if (_GOOGLE_HEADER if style == "google" else _NUMPY_HEADER).match(line)]
    indent = _indent(lines[headers[0]])
    section = _section(lines, style, "Raises")
    if section is not None:
        start, end = section
        header = start - (1 if style == "google" else 2)
        items = [line for line in lines[start:end] if line.strip()]
        inner = _indent(items[0]) if items else _indent(lines[header]) + "    "
        added = _entries(style, inner, new, line_length)
        at = max((index + 1 for index in range(start, end) if lines[index].strip()),
                 default=start)
        return _joined(prefix, quote, lines, at, added)
    header = [f"{indent}Raises:"] if style == "google" else [f"{indent}Raises",
                                                               f"{indent}------"]
    inner = indent + ("    " if style == "google" else "")
    return _joined(prefix, quote, lines, _after_sections(lines, style, headers[-1], indent),
                   ["", *header, *_entries(style, inner, new, line_length)])


# A reST directive at the start of a line: `.. note::`, `.. noise-footer::`.
_DIRECTIVE = re.compile(r"^[ \t]*\.\. [\w-]+::")


def _after_sections(lines: list[str], style: str, last_header: int, indent: str) -> int:
    """Where a new section goes: after the content of the last one, so that what follows
    the sections at their indent stays last (torchwright's `.. noise-footer::` block,
    which its own tool rewrites from the marker to the closing quotes: round 55's
    reviewer found a `Raises` section added after it wiped on the next run). In a
    Google docstring a section ends at a line back at the headers' indent; NumPy
    sections hold lines at that indent, and end only at a directive."""
    end = start = last_header + (1 if style == "google" else 2)
    while end < len(lines):
        line = lines[end]
        if line.strip() and len(_indent(line)) <= len(indent) and (
                style == "google" or _DIRECTIVE.match(line)):
            break
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return end


def _entries(style: str, inner: str, new: list[tuple[str, str]],
             line_length: int | None) -> list[str]:
    """The lines of Google (`Name: description`) or NumPy (`Name` / description below)
    entries at the indent `inner`."""
    if style == "google":
        return [text for name, description in new
                for text in _wrapped(f"{inner}{name}: ", description, f"{inner}    ",
                                     line_length)]
    return [text for name, description in new
            for text in (f"{inner}{name}", *_wrapped(f"{inner}    ", description,
                                                     f"{inner}    ", line_length))]


def _wrapped(first: str, description: str, following: str,
             line_length: int | None) -> list[str]:
    """`first` + `description`, on lines of at most `line_length` (a word longer than
    the line stays whole), the lines after the first starting with `following`."""
    if line_length is None or len(first) + len(description) <= line_length:
        return [first + description]
    return textwrap.wrap(description, width=line_length, initial_indent=first,
                         subsequent_indent=following, break_long_words=False,
                         break_on_hyphens=False) or [first + description]


def _section(lines: list[str], style: str, title: str) -> tuple[int, int] | None:
    """(first line, end) of the section's content; None where there is none."""
    for index, line in enumerate(lines):
        if style == "google" and line.strip() == f"{title}:":
            start = index + 1
            indent = len(_indent(line))
            end = start
            while end < len(lines) and (
                    not lines[end].strip() or len(_indent(lines[end])) > indent):
                end += 1
            return start, end
        if (style == "numpy" and line.strip() == title and index + 1 < len(lines)
                and _NUMPY_RULE.match(lines[index + 1])):
            start = index + 2
            end = start
            while end < len(lines) and not (
                    _NUMPY_HEADER.match(lines[end]) and end + 1 < len(lines)
                    and _NUMPY_RULE.match(lines[end + 1])):
                end += 1
            return start, end
    return None


def _indent(line: str) -> str:
    return line[:len(line) - len(line.lstrip())]


def _joined(prefix: str, quote: str, lines: list[str], at: int, added: list[str]) -> str:
    return prefix + quote + "\n".join([*lines[:at], *added, *lines[at:]]) + quote
