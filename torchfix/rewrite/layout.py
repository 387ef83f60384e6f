"""Laying out edited code over lines the way black and ruff format would.

An edit that lengthens a line (a longer callee, a new keyword) can push it past the
project's line length, and an edit that shortens a call laid out over lines can leave a
split the formatter would now join. These helpers decide, in `check()`, on CPython's
tree and the source text, what the formatter would write instead:

- `split_line`: a line that fit and no longer does is split at its last bracket pair,
  black's right-hand split: the head up to the opening bracket, the contents one level
  deeper on a line of their own, the closing bracket back at the line's indentation;
  contents still too long go one element per line with a trailing comma (the elements
  of a sole list argument, `f([a, b])`, one level deeper still). A compound statement's
  header (`with f(...):`, `if f(...):`) is split the same way, the `:` after the bracket.
- `split_replacement`: the same for a node replaced by new code, also where the node was
  laid out over lines and makes a line of its own once replaced.
- `appended_keyword`: a keyword appended to a call, laid out as the call's shape asks
  (`split_line`; on the arguments' line of a call black split at its brackets).
- `joins_on_one_line`: whether a call laid out over lines fits on one line once edited
  (no comments inside, no magic trailing comma), so that it should be joined.

The line length is the project's formatter's (`Project.formatter_line_length()`), else
black's and ruff's default of 88; a file with lines of code longer than 88 in a project
that configures no line length keeps to some other limit (yapf's, flake8's), so its
lines are not split. No libcst here: `check` never needs it.
"""

from __future__ import annotations

import ast
import io
import itertools
import re
import tokenize
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from torchfix.model.line_length import PRAGMA
from torchfix.rewrite.contract import AddKeyword, FileContext, ReplaceNode

DEFAULT_LINE_LENGTH = 88
# `PRAGMA`: comments that apply to the line they are on, which a line break would move.
_OPENING = {"(": ")", "[": "]", "{": "}"}
_CLOSING = frozenset(_OPENING.values())
# Nodes whose own brackets end them: a split at those brackets replaces the node.
_BRACKETED = (ast.Call, ast.Subscript, ast.Dict, ast.List, ast.Set, ast.ListComp,
              ast.SetComp, ast.DictComp)
_DISPLAYS = (ast.Dict, ast.List, ast.Set)
# Words and operators that black splits at before commas' level would be reached: a line
# holding one at its top level is not split at its last bracket here.
_DELIMITER_WORDS = frozenset({"and", "or", "not", "in", "is", "if", "else", "for", "lambda",
                              "await", "async"})


def line_length(file: FileContext) -> int:
    """The project's line length (its ruff or black configuration), else 88."""
    return file.project.formatter_line_length() or DEFAULT_LINE_LENGTH


def sets_no_line_length(file: FileContext, limit: int) -> bool:
    """Whether nothing holds the file to `limit`: no line length is configured, no
    formatter is (a `[tool.ruff]` or `[tool.black]` table formats at 88: tytorch's
    `ruff format`, round 56, would wrap a 101-column call that another module of it kept
    long), and the file keeps longer lines of code. A long new line is then as the file
    writes them."""
    return (file.project.formatter_line_length() is None
            and file.project.formatter_settings().formatter is None
            and keeps_long_code_lines(file, limit))


def indent_unit(file: FileContext) -> str:
    """One level of indentation as the file writes it: the step most of its blocks take
    (nnunetv2's trainer indents one `try:` by 3 spaces and everything else by 4), the
    first block's on a tie; 4 spaces in a file without blocks."""
    steps: Counter[str] = Counter()
    for node in ast.walk(file.tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.stmt) and isinstance(body, list) and body and isinstance(
                body[0], ast.stmt) and body[0].lineno > node.lineno:
            outer = file.lines[node.lineno - 1]
            inner = file.lines[body[0].lineno - 1]
            outer = outer[: len(outer) - len(outer.lstrip(" \t"))]
            inner = inner[: len(inner) - len(inner.lstrip(" \t"))]
            if inner.startswith(outer) and len(inner) > len(outer):
                steps[inner[len(outer):]] += 1
                if sum(steps.values()) >= _INDENT_VOTES:
                    break
    return steps.most_common(1)[0][0] if steps else "    "


# Blocks read to find a file's indentation: enough to outvote a stray one.
_INDENT_VOTES = 200


@dataclass(frozen=True)
class LineSplit:
    """Replace `node` by `code`: the node's text, edited, split at its brackets. `code`'s
    lines after the first are indented relative to the statement holding the node (an
    editor adds the statement's own indentation, as libcst does for its block)."""

    node: ast.expr
    code: str


def split_line(file: FileContext, node: ast.AST, edits: Sequence[tuple[int, int, str]]
               ) -> LineSplit | None:
    """How black would lay out the line holding `node` once `edits` are made on it, if it
    fit the line length before and no longer does; None when the edited line fits, did
    not fit before, or is not one this can lay out safely (comments, a statement sharing
    its line, brackets opened on other lines, splits black would make elsewhere).

    `edits`: (start column, end column, new text) on the line of `node`'s start, in
    characters, not overlapping.
    """
    number = getattr(node, "lineno", None)
    if number is None:
        return None
    old = file.lines[number - 1].rstrip("\r\n")
    new = _edited(old, edits)

    def target(statement: ast.stmt, closing: int) -> tuple[ast.expr, int] | None:
        found = _node_at(file, node, statement, number, old, edits, closing)
        if found is None:
            return None
        return found, _shifted(file.span(found).column, edits)

    return _split(file, node, number, number, new, target)


def split_replacement(file: FileContext, node: ast.expr, code: str) -> LineSplit | None:
    """How black would lay out the lines holding `node` once it is replaced by `code`
    (one line), when they fit the line length before and the result does not: a node on
    one line as `split_line` lays it out; a node laid out over lines (`f(\n    a,\n)`)
    likewise when, joined with the text before it on its first line and after it on its
    last, it makes a line of its own (a `with` header, an element of brackets already
    split, a statement) whose last bracket pair is the new code's. None otherwise."""
    span = file.span(node)
    if span.line == span.end_line:
        return split_line(file, node, [(span.column, span.end_column, code)])
    if "\n" in code or not isinstance(node, _BRACKETED):
        return None
    first = file.lines[span.line - 1]
    last = file.lines[span.end_line - 1].rstrip("\r\n")
    new = first[:span.column] + code + last[span.end_column:]
    end = span.column + len(code) - 1

    def target(statement: ast.stmt, closing: int) -> tuple[ast.expr, int] | None:
        return (node, span.column) if closing == end else None

    return _split(file, node, span.line, span.end_line, new, target)


def _split(file: FileContext, node: ast.AST, number: int, end: int, new: str,
           target_at: Callable[[ast.stmt, int], tuple[ast.expr, int] | None]
           ) -> LineSplit | None:
    """`split_line`'s layout of lines `number`..`end` (one line of source or several),
    edited into the one line `new`; `target_at` gives the node that ends with the bracket
    at a column of `new` and the column of `new` it starts at."""
    olds = [file.lines[n - 1].rstrip("\r\n") for n in range(number, end + 1)]
    old = olds[0]
    limit = line_length(file)
    if sets_no_line_length(file, limit):
        return None  # nothing sets a line length, and the file does not keep to 88
    if any(len(line) > limit or "\\" in line for line in olds) or len(new) <= limit \
            or PRAGMA.search(olds[0]) or PRAGMA.search(olds[-1]):
        return None
    statement = file.semantic.statement(node)
    if statement is None:
        return None
    first = file.lines[statement.lineno - 1]
    block = first[: len(first) - len(first.lstrip(" \t"))]
    indent = old[: len(old) - len(old.lstrip(" \t"))]
    if not indent.startswith(block) or file.span(statement).column != len(block):
        return None  # `if x: save(...)`, `a; save(...)`: the formatter splits those first
    header = _header_line(statement, number, end)
    if statement.lineno == number and (statement.end_lineno or end) != end and not header:
        return None  # the statement's first line: it goes on below
    pair = _last_bracket_pair(new[len(indent):], header)
    if pair is None:
        return None
    opening, closing, tail = pair
    opening += len(indent)
    closing += len(indent)
    body = new[opening + 1:closing].strip()
    if not body or body.endswith(","):
        return None  # nothing to put on a line of its own; a magic trailing comma
    found = target_at(statement, closing)
    if found is None:
        return None
    target, start = found
    relative = indent[len(block):]
    unit = indent_unit(file)
    lines = [new[:opening + 1]]
    elements = _top_level_elements(body)
    # A display (`[...]`, `{...}`) with several elements goes one per line whenever it
    # is split; other brackets (a call's) only when the contents do not fit on a line.
    if len(indent) + len(unit) + len(body) <= limit and not (
            elements is not None and isinstance(target, _DISPLAYS)):
        lines.append(relative + unit + body)
    else:  # one element per line, with a trailing comma: black's delimiter split
        inner = _sole_display(body) if elements is None else None
        if inner is not None:  # `f([a, b])`: black splits the list inside as well
            opening_inner, inner_elements = inner
            if any(len(indent) + 2 * len(unit) + len(element) + 1 > limit
                   for element in inner_elements):
                return None
            lines += [relative + unit + opening_inner,
                      *(relative + 2 * unit + element + "," for element in inner_elements),
                      relative + unit + _OPENING[opening_inner]]
        elif elements is None or any(len(indent) + len(unit) + len(element) + 1 > limit
                                     for element in elements):
            return None
        else:
            lines += [relative + unit + element + "," for element in elements]
    if len(lines[0]) > limit or len(indent) + 1 + len(tail) > limit:
        return None  # the closing line keeps what follows the bracket: comma, comment
    lines.append(relative + new[closing])
    code = "\n".join(lines)[start:]
    return LineSplit(target, code)


def joins_on_one_line(file: FileContext, call: ast.Call,
                      replaced: Mapping[int, str]) -> bool:
    """Whether `call`, laid out over lines, fits on one line once the arguments in
    `replaced` (node id → new text) are replaced, in its arguments or in the callee it is
    a method of (`torch.where(m, x, C).amin(` over lines `)`): it holds no comment, no
    magic trailing comma and no argument over lines, and its first line's text before it
    plus the one line plus its last line's text after it (closing brackets, commas) fit."""
    span = file.span(call)
    if span.line == span.end_line:
        return False
    arguments = sorted([*call.args, *call.keywords],
                       key=lambda a: (a.lineno, a.col_offset))  # type: ignore[attr-defined]
    texts = [_argument_text(file, argument, replaced) for argument in arguments]
    callee = _replaced_source(file, call.func, replaced)
    if any("\n" in text for text in (callee, *texts)):
        return False
    source = file.source(call)
    if _has_comment(source) or _has_trailing_comma(source):
        return False
    before = file.lines[span.line - 1][:span.column]
    after = file.lines[span.end_line - 1].rstrip("\r\n")[span.end_column:]
    if not re.fullmatch(r"[\s)\]},:]*", after):
        return False
    joined = f"{before}{callee}({', '.join(texts)}){after.rstrip()}"
    return len(joined) <= line_length(file)


# -- reading text --------------------------------------------------------------------------


def _argument_text(file: FileContext, argument: ast.expr | ast.keyword,
                   replaced: Mapping[int, str]) -> str:
    if id(argument) in replaced:
        return replaced[id(argument)]
    if isinstance(argument, ast.keyword) and id(argument.value) in replaced:
        prefix = f"{argument.arg}=" if argument.arg is not None else "**"
        return prefix + replaced[id(argument.value)]
    if isinstance(argument, ast.Starred) and id(argument.value) in replaced:
        return "*" + replaced[id(argument.value)]
    return file.source(argument)


def _replaced_source(file: FileContext, node: ast.AST, replaced: Mapping[int, str]) -> str:
    """The source of `node` with the nodes inside it that `replaced` names (node id → new
    text) replaced."""
    if id(node) in replaced:
        return replaced[id(node)]
    start = file.span(node)
    text = file.source(node)
    starts = [0]  # where each of the node's lines starts in `text`
    for line in text.split("\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def offset(line: int, column: int) -> int:
        return starts[line - start.line] + column - (start.column if line == start.line else 0)

    inner = [descendant for descendant in ast.walk(node)
             if descendant is not node and id(descendant) in replaced]
    for descendant in sorted(inner, key=lambda d: (d.lineno, d.col_offset),  # type: ignore[attr-defined]
                             reverse=True):
        span = file.span(descendant)
        text = (text[:offset(span.line, span.column)] + replaced[id(descendant)]
                + text[offset(span.end_line, span.end_column):])
    return text


def keeps_long_code_lines(file: FileContext, limit: int) -> bool:
    """Whether a line of code (not a comment, a line holding a string, a string over
    lines or a `noqa` line, which formatters leave long: black cannot wrap deepinv's
    90-column error message, round 17) is longer than `limit`."""
    long = {number for number, line in enumerate(file.lines, 1)
            if len(line.rstrip("\r\n")) > limit and not line.lstrip().startswith("#")
            and "noqa" not in line and "'" not in line and '"' not in line}
    if not long:
        return False
    for node in ast.walk(file.tree):
        if isinstance(node, (ast.Constant, ast.JoinedStr)) and \
                (node.end_lineno or node.lineno) > node.lineno:
            long -= set(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return bool(long)


def _edited(line: str, edits: Sequence[tuple[int, int, str]]) -> str:
    for start, end, text in sorted(edits, reverse=True):
        line = line[:start] + text + line[end:]
    return line


def _shifted(column: int, edits: Sequence[tuple[int, int, str]]) -> int:
    """Where `column` of the old line is on the edited line."""
    return column + sum(len(text) - (end - start) for start, end, text in edits
                        if end <= column)


def _tokens(text: str) -> list[tokenize.TokenInfo] | None:
    try:
        return [token for token in tokenize.generate_tokens(io.StringIO(text + "\n").readline)
                if token.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER,
                                      tokenize.INDENT, tokenize.DEDENT)]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None


def _header_line(statement: ast.stmt, number: int, end: int) -> bool:
    """Whether lines `number`..`end` are the whole header of a compound statement whose
    body starts below (`with f(...):`, `if f(...):`): black splits it at its last bracket
    too, the `:` after the closing bracket."""
    if not isinstance(statement, (ast.With, ast.AsyncWith, ast.If, ast.While)):
        return False
    return statement.lineno == number and statement.body[0].lineno > end


def _sole_display(body: str) -> tuple[str, list[str]] | None:
    """(its opening bracket, its elements) when a bracket's contents are one list, set
    or tuple display with several elements and no trailing comma (black splits it one
    element per line); None otherwise."""
    if not body or body[0] not in "[(" or _OPENING[body[0]] != body[-1]:
        return None
    pair = _last_bracket_pair(body)
    if pair is None or pair[:2] != (0, len(body) - 1):
        return None
    inner = body[1:-1].strip()
    elements = _top_level_elements(inner)
    if elements is None or not all(elements) or inner.endswith(","):
        return None
    return body[0], elements


def _last_bracket_pair(text: str, header: bool = False) -> tuple[int, int, str] | None:
    """(opening column, closing column, text after it) of the last bracket pair of a
    line whose brackets all close on it, when black would split it there: nothing but a
    trailing comma and a comment after it, and outside brackets no delimiter that black
    splits at first (a comma between elements, an operator, a boolean or conditional
    word, a dot after a bracket)."""
    tokens = _tokens(text)
    if not tokens:
        return None
    stack: list[int] = []
    pair: tuple[int, int] | None = None
    for index, token in enumerate(tokens):
        if token.type == tokenize.COMMENT and index == len(tokens) - 1:
            break  # a comment at the end stays after the closing bracket
        if token.start[0] != 1 or token.type == tokenize.COMMENT:
            return None  # a string over lines
        string = token.string
        if token.type == tokenize.OP and string in _OPENING:
            stack.append(token.start[1])
            continue
        if token.type == tokenize.OP and string in _CLOSING:
            if not stack:
                return None
            opening = stack.pop()
            if not stack:
                pair = (opening, token.start[1])
            continue
        if stack:
            continue
        if token.type == tokenize.NAME and string in _DELIMITER_WORDS:
            return None
        if token.type == tokenize.OP:
            trailing = string == "," and index == len(tokens) - 1
            if not (trailing or string in ("=", ":") or (string == "." and pair is None)):
                return None
            if string == "=":
                pair = None  # `outs: tuple[...] = cp.checkpoint(...)`: the value starts here
    if stack or pair is None:
        return None
    tail = text[pair[1] + 1:].rstrip()
    code = tail.split("#", 1)[0].strip()
    if code not in ("", ",") and not (header and code.endswith(":")):
        return None
    return pair[0], pair[1], tail


def _top_level_elements(body: str) -> list[str] | None:
    """The comma-separated elements of a bracket's contents; None if it has no comma."""
    tokens = _tokens(body)
    if tokens is None:
        return None
    depth = 0
    cuts = [-1]
    lambda_parameters = False  # `lambda storage, loc: storage`: its commas are its own
    for token in tokens:
        if token.type == tokenize.OP and token.string in _OPENING:
            depth += 1
        elif token.type == tokenize.OP and token.string in _CLOSING:
            depth -= 1
        elif depth == 0 and token.type == tokenize.NAME and token.string == "lambda":
            lambda_parameters = True
        elif depth == 0 and lambda_parameters and token.type == tokenize.OP \
                and token.string == ":":
            lambda_parameters = False
        elif depth == 0 and not lambda_parameters and token.type == tokenize.OP \
                and token.string == ",":
            cuts.append(token.start[1])
    if len(cuts) == 1:
        return None
    cuts.append(len(body))
    return [body[a + 1:b].strip() for a, b in itertools.pairwise(cuts)]


def _node_at(file: FileContext, node: ast.AST, statement: ast.stmt, number: int,
             old: str, edits: Sequence[tuple[int, int, str]], closing: int
             ) -> ast.expr | None:
    """The node among `node` and its ancestors (up to the statement) that ends with the
    bracket at `closing` (a column of the edited line) and begins on the line."""
    candidates = [node, *file.semantic.ancestors(node)]
    for candidate in candidates:
        if candidate is statement:
            break
        if not isinstance(candidate, _BRACKETED):
            continue
        span = file.span(candidate)
        if span.line != number or span.end_line != number:
            continue
        if _shifted(span.end_column, edits) - 1 == closing:
            return candidate
    return None


def _has_comment(source: str) -> bool:
    if "#" not in source:
        return False
    tokens = _tokens(f"(\n{source}\n)")
    return tokens is None or any(token.type == tokenize.COMMENT for token in tokens)


def _has_trailing_comma(source: str) -> bool:
    """A comma after the last argument: black keeps such a call exploded."""
    stripped = source.rstrip()
    return stripped.endswith(")") and stripped[:-1].rstrip().endswith(",")


def appended_keyword(file: FileContext, call: ast.Call, name: str,
                     value: str) -> AddKeyword | ReplaceNode:
    """The edit appending `name=value` to `call`: the keyword added, or, where that makes a
    one-line call that fit outgrow the project's line length, the line split as black
    would split it (`split_line`). A call black split at its brackets, its arguments on
    a line of their own (`f(\n    a, b\n)`), gets the keyword on that line (the editor
    puts it there), or, where that line would outgrow the line length, one argument per
    line with a trailing comma, as black's delimiter split writes it."""
    span = file.span(call)
    if span.line == span.end_line:
        closing = span.end_column - 1
        layout = split_line(file, call, [(closing, closing, f", {name}={value}")])
        if layout is not None:
            return ReplaceNode(layout.node, layout.code)
        aligned = _aligned_keyword(file, call, f"{name}={value}")
        if aligned is not None:
            return ReplaceNode(call, aligned)
        return AddKeyword(call, name, value)
    exploded = _exploded_body(file, call, f"{name}={value}")
    return AddKeyword(call, name, value) if exploded is None else ReplaceNode(call, exploded)


def _aligned_keyword(file: FileContext, call: ast.Call, argument: str) -> str | None:
    """`call` (on one line) with `argument` appended on a line of its own, aligned with
    the call's opening bracket, as pycodestyle's visual indent has it, where appending it
    on the line makes a line that fit the project's configured line length (flake8's 79
    in advertorch's `setup.cfg`, round 25) outgrow it, and black's split (`split_line`)
    does not apply: the call is a continuation line inside another call (`model.
    load_state_dict(\n    torch.load(path)))`). None where no line length is configured,
    the line fits or did not fit before, or the aligned line would not fit either."""
    limit = file.project.formatter_line_length()
    span = file.span(call)
    if limit is None or not (call.args or call.keywords) or span.line != span.end_line:
        return None
    line = file.lines[span.line - 1].rstrip("\r\n")
    source = file.source(call)
    head = file.source(call.func)
    if len(line) > limit or len(line) + len(", " + argument) <= limit \
            or not source.startswith(head + "(") or _has_comment(line) \
            or _has_trailing_comma(source):
        return None
    column = span.column + len(head) + 1  # just inside the opening bracket
    after = line[span.end_column:]
    statement = file.semantic.statement(call)
    if statement is None or column + len(argument) + 1 + len(after) > limit:
        return None
    first = file.lines[statement.lineno - 1]
    block = len(first) - len(first.lstrip(" \t"))  # the editor indents lines by the block
    if "\t" in first[:block] or column < block:
        return None
    return f"{source[:-1]},\n{' ' * (column - block)}{argument})"


def _exploded_body(file: FileContext, call: ast.Call, argument: str) -> str | None:
    """`call` with `argument` appended, one argument per line with a trailing comma, when
    it is laid out as black's right-hand split (`f(` / the arguments on one line /
    `)`), holds no comment, and its arguments' line with `argument` appended outgrows the
    line length while each argument fits on a line of its own; None otherwise."""
    span = file.span(call)
    arguments = [*call.args, *call.keywords]
    if span.end_line != span.line + 2 or not arguments or any(
            (argument_node.lineno, argument_node.end_lineno) != (span.line + 1, span.line + 1)
            for argument_node in arguments):
        return None
    head, body_line, last = (file.lines[n - 1].rstrip("\r\n")
                             for n in range(span.line, span.end_line + 1))
    limit = line_length(file)
    if sets_no_line_length(file, limit):
        return None  # nothing sets a line length, and the file does not keep to 88
    source = file.source(call)
    if not head.endswith("(") or last.strip()[:1] != ")" or _has_comment(source) \
            or _has_trailing_comma(source) or "\\" in source \
            or any(len(line) > limit for line in (head, body_line, last)):
        return None
    body = body_line.strip()
    indent = body_line[: len(body_line) - len(body)]
    if len(indent) + len(body) + len(", " + argument) <= limit:
        return None  # it fits on the arguments' line: where the editor puts it
    elements = _top_level_elements(f"{body}, {argument}")
    statement = file.semantic.statement(call)
    if elements is None or statement is None or any(
            len(indent) + len(element) + 1 > limit for element in elements):
        return None
    first = file.lines[statement.lineno - 1]
    block = first[: len(first) - len(first.lstrip(" \t"))]
    closing = last[: len(last) - len(last.lstrip(" \t"))]
    if not indent.startswith(block) or not closing.startswith(block):
        return None
    return "\n".join([head[span.column:],
                      *(indent[len(block):] + element + "," for element in elements),
                      closing[len(block):] + ")"])
