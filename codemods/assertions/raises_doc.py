"""The `Raises` section of a docstring: which style a docstring is written in, and the
docstring with an exception added to its `Raises` section (darglint's `DAR401` and
pydoclint's `DOC501` flag a raise a docstring with sections does not document).

Plain text in, plain text out (the literal as written: prefix, quotes and escapes
included), so that `check()` can tell whether the edit can be made without importing
libcst, and the editor makes exactly that edit on the docstring's node.
"""

from __future__ import annotations

import re

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


def with_raises(literal: str, entries: list[tuple[str, str]]) -> str | None:
    """The docstring literal `literal` with `entries` ((exception, description)) added
    to its `Raises` section (made at its end where it has none), in its own style and
    indentation, one entry an exception; those it documents already are skipped. None
    where that cannot be done safely: not a plain triple-quoted string, no sections,
    the closing quotes not on a line of their own, or a description that would need
    escaping."""
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
        added = [f"{indent}:raises {name}: {description}" for name, description in new]
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
        if style == "google":
            added = [f"{inner}{name}: {description}" for name, description in new]
        else:
            added = [text for name, description in new
                     for text in (f"{inner}{name}", f"{inner}    {description}")]
        at = max((index + 1 for index in range(start, end) if lines[index].strip()),
                 default=start)
        return _joined(prefix, quote, lines, at, added)
    if style == "google":
        added = ["", f"{indent}Raises:",
                 *(f"{indent}    {name}: {description}" for name, description in new)]
    else:
        added = ["", f"{indent}Raises", f"{indent}------",
                 *(text for name, description in new
                   for text in (f"{indent}{name}", f"{indent}    {description}"))]
    return _joined(prefix, quote, lines, last + 1, added)


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
