"""assert-to-raise's editor: lays out the `if ...: raise` that `check()` decided.

Which asserts change, into which exception, was decided on CPython's tree
(`codemods.assertions.assert_to_raise`); here libcst keeps the comments and layout
around each one.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator, Sequence
from typing import cast

import libcst as cst

from torchfix.rewrite.contract import Finding
from torchfix.rewrite.editing import Editor
from torchfix.rewrite.edits import file_quote
from torchfix.rewrite.layout import indent_unit

from .assert_to_raise import _PRAGMA, Decision
from .raises_doc import with_raises

# A new piece of code in place of an assert: small statements stay on their line, whole
# lines (`msg = "..."` before a `raise`) and `if` blocks take lines of their own.
Piece = cst.BaseSmallStatement | cst.If | cst.SimpleStatementLine


class AssertToRaiseEditor(Editor):
    """Replaces each decided assert (the findings' `data` is its `Decision`)."""

    _quote = '"'
    # New `if`s whose trailing comment continues on comment lines below: those move up
    _pulls_comments: dict[int, int] = {}

    # The Raises entries of the asserts rewritten in each enclosing function, innermost last
    _raises: list[list[tuple[str, str]]] = []
    # The line length a Raises entry's description is wrapped to (the layout's)
    _raises_width: int | None = None
    _unit: str | None = None  # one level of indentation (`_default_indent`)

    def visit_Module(self, node: cst.Module) -> None:
        self._unit = None
        self._quote = file_quote(self.file.text)
        self._pulls_comments = {}
        self._raises = []

    def done(self, finding: Finding) -> None:
        super().done(finding)
        entry = finding.data.layout.raises_doc if isinstance(finding.data, Decision) else None
        if entry is not None and self._raises:
            self._raises[-1].append(entry)
            self._raises_width = finding.data.layout.line_length

    # -- the docstring's Raises section (DAR401, DOC501) ----------------------------------

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._raises.append([])

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.FunctionDef:
        entries = self._raises.pop() if self._raises else []
        body = updated_node.body
        if not entries or not isinstance(body, cst.IndentedBlock) or not body.body:
            return updated_node
        first = body.body[0]
        if not (isinstance(first, cst.SimpleStatementLine) and len(first.body) == 1
                and isinstance(first.body[0], cst.Expr)
                and isinstance(first.body[0].value, cst.SimpleString)):
            return updated_node
        docstring = first.body[0].value
        text = with_raises(docstring.value, entries, self._raises_width)
        if text is None or text == docstring.value:
            return updated_node
        expression = first.body[0].with_changes(value=docstring.with_changes(value=text))
        line = first.with_changes(body=[expression])
        return updated_node.with_changes(
            body=body.with_changes(body=[line, *body.body[1:]]))

    # -- statements holding asserts --------------------------------------------------------

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if not _has_assert(original_node.body):
            return updated_node  # also left for every line of a visited function
        indent = self.position(original_node.body[0]).start.column
        comment = updated_node.trailing_whitespace.comment
        # The line's comment ends up after the last `if` header: it counts in its width.
        comment_width = len(comment.value) + 2 if comment is not None else 0
        continued = self._continued_comment(original_node.body)
        if continued:
            comment_width = 0
        on_header, on_message = True, False
        if comment is not None and _PRAGMA.match(comment.value.lstrip("#").strip()):
            on_header, on_message = self._pragma_protects(original_node)
            if not on_header:
                comment_width = 0
        pieces = self._rewrite_statements(
            original_node.body, updated_node.body, indent, comment_width
        )
        if pieces is None:
            return updated_node
        trailing = updated_node.trailing_whitespace
        if on_message and comment is not None:
            pieces = _with_message_comment(pieces, comment)
        if not on_header:
            trailing = trailing.with_changes(comment=None, whitespace=cst.SimpleWhitespace(""))
        leading = list(updated_node.leading_lines)
        if continued and comment is not None:
            # The comment goes on above the `if`, with the lines that continue it.
            leading.append(cst.EmptyLine(comment=comment))
            trailing = trailing.with_changes(comment=None, whitespace=cst.SimpleWhitespace(""))
        lines = _as_lines(pieces, trailing)
        lines[0] = lines[0].with_changes(leading_lines=leading)
        if continued and comment is not None:
            self._pulls_comments[id(lines[-1])] = continued
        return lines[0] if len(lines) == 1 else cst.FlattenSentinel(lines)

    def _pragma_protects(self, line: cst.SimpleStatementLine) -> tuple[bool, bool]:
        """Where a pragma comment (`# noqa: E501`, `# type: ignore`) after a lone assert
        goes: (on the `if` header, on the message's line). It protects what shares its
        line: the message only, when the condition ended on an earlier line; both, when
        both are there (a one-line assert)."""
        if len(line.body) != 1 or not isinstance(line.body[0], cst.Assert):
            return True, False
        assertion = line.body[0]
        if assertion.msg is None or self.finding_at(assertion) is None:
            return True, False
        last = self.position(line).end.line
        message = self.position(assertion.msg)
        if message.start.line != last:
            return True, False  # the message starts above the comment's line
        if self.position(assertion.test).end.line < last:
            return False, True
        return True, True

    def _continued_comment(self, statements: Sequence[cst.BaseSmallStatement]) -> int:
        for statement in statements:
            if isinstance(statement, cst.Assert):
                finding = self.finding_at(statement)
                if finding is not None:
                    return int(finding.data.layout.comment_continued)
        return 0

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        return updated_node.with_changes(body=self._pull_comments(updated_node.body))

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        return updated_node.with_changes(body=self._pull_comments(updated_node.body))

    def _pull_comments(
        self, body: Sequence[cst.BaseStatement]
    ) -> Sequence[cst.BaseStatement]:
        """The comment lines continuing a moved trailing comment join it above its `if`."""
        if not self._pulls_comments:
            return body
        statements = list(body)
        for index, statement in enumerate(statements[:-1]):
            count = self._pulls_comments.pop(id(statement), 0)
            following = statements[index + 1]
            moved = list(following.leading_lines[:count])
            if not moved or any(line.comment is None for line in moved):
                continue
            statements[index] = statement.with_changes(
                leading_lines=[*statement.leading_lines, *moved]
            )
            statements[index + 1] = following.with_changes(
                leading_lines=following.leading_lines[count:]
            )
        return statements

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.BaseSuite:
        if not _has_assert(original_node.body):
            return updated_node
        # The suite's statements move into a block one level below the compound statement.
        owner = self.position(self._statements[-1]).start.column
        indent = owner + len(self._default_indent())
        pieces = self._rewrite_statements(original_node.body, updated_node.body, indent, 0)
        if pieces is None:
            return updated_node
        if all(isinstance(piece, cst.BaseSmallStatement) for piece in pieces):
            # Only `assert False` became `raise`: the suite stays on its line.
            return updated_node.with_changes(body=_end_group(pieces))  # type: ignore[arg-type]
        # `if x: assert y` needs a block of its own; the comment stays on the header.
        return cst.IndentedBlock(
            header=updated_node.trailing_whitespace,
            body=_as_lines(pieces, cst.TrailingWhitespace()),
        )

    def _rewrite_statements(
        self,
        originals: Sequence[cst.BaseSmallStatement],
        updates: Sequence[cst.BaseSmallStatement],
        indent: int,
        comment_width: int,
    ) -> list[Piece] | None:
        """The statements with each assert replaced as decided; None if nothing changed."""
        pieces: list[Piece] = []
        changed = False
        for original, updated in zip(originals, updates, strict=True):
            if isinstance(original, cst.Assert) and isinstance(updated, cst.Assert):
                finding = self.finding_at(original)
                if finding is not None and not finding.data.layout.merge_with_if:
                    pieces += self._rewrite_assert(updated, finding.data, indent, comment_width)
                    self.done(finding)
                    changed = True
                    continue
            pieces.append(updated)
        return pieces if changed else None

    def _rewrite_assert(
        self, updated: cst.Assert, decision: Decision, indent: int, comment_width: int,
        outer: cst.BaseExpression | None = None,
    ) -> list[Piece]:
        """The assert's replacement; with `outer`, the test of the `if` it was alone in,
        merged into the new one (SIM102)."""
        if decision.always_fails:
            lines = self._raise_lines(updated, decision, indent)
            if len(lines) == 1:
                (line,) = lines
                return [line.body[0].with_changes(semicolon=updated.semicolon)]
            return list(lines)
        inner = indent + len(self._default_indent())
        width = indent + comment_width
        test = self._if_test(updated.test, width, decision,
                             indent=None if outer is not None else indent)
        if outer is not None:
            test = self._merged_test(outer, test, width, decision)
        return [
            cst.If(
                test=test,
                body=self._block(self._raise_lines(updated, decision, inner)),
            )
        ]

    def _raise_lines(
        self, assertion: cst.Assert, decision: Decision, indent: int
    ) -> list[cst.SimpleStatementLine]:
        """`raise E(<message>)`, or `msg = <message>` then `raise E(msg)` (flake8-errmsg)."""
        variable = decision.layout.message_variable
        if decision.raises_message and assertion.msg is not None:
            # `assert c, NotImplementedError`: the message is the exception to raise.
            raised = assertion.msg
            if raised.lpar and "\n" not in _NO_CODE.code_for_node(raised):
                raised = raised.with_changes(lpar=[], rpar=[])
            return [cst.SimpleStatementLine(body=[cst.Raise(exc=raised)])]
        if decision.always_fails and assertion.msg is None:
            # A bare `assert False`: a bare `raise AssertionError`, as the original raised.
            return [cst.SimpleStatementLine(body=[cst.Raise(exc=cst.Name(decision.exception))])]
        if variable is None:
            call = self._exception_call(assertion, decision, indent)
            if decision.layout.trailing_comma:
                call = _with_trailing_comma(call)
            return [cst.SimpleStatementLine(body=[cst.Raise(exc=call)])]
        # Measured as `raise E(<message>)` is: `<variable> = <message>` at the same column
        shift = len(f"{variable} = ") - len(f"raise {decision.exception}()")
        call = self._exception_call(assertion, decision, indent + shift, fit=False)
        (argument,) = call.args
        value = argument.value
        if "\n" in _NO_CODE.code_for_node(call) and not isinstance(value, cst.SimpleString):
            # A message over lines keeps them inside parentheses of its own.
            value = value.with_changes(
                lpar=[cst.LeftParen(whitespace_after=call.whitespace_before_args)],
                rpar=[cst.RightParen(whitespace_before=argument.whitespace_after_arg)],
            )
        code = _NO_CODE.code_for_node(value)
        line_length = decision.layout.line_length
        unit = self._default_indent()
        if ("\n" not in code and indent + len(f"{variable} = {code}") > line_length
                and indent + len(unit) + len(code) <= line_length):
            # As a formatter splits a long right-hand side that fits on a line of its own.
            value = value.with_changes(
                lpar=[cst.LeftParen(whitespace_after=cst.ParenthesizedWhitespace(
                    indent=True, last_line=cst.SimpleWhitespace(unit)))],
                rpar=[cst.RightParen(whitespace_before=cst.ParenthesizedWhitespace(indent=True))],
            )
        assign = cst.Assign(targets=[cst.AssignTarget(cst.Name(variable))], value=value)
        new_call = cst.Call(func=call.func, args=[cst.Arg(cst.Name(variable))])
        return [
            cst.SimpleStatementLine(body=[assign]),
            cst.SimpleStatementLine(body=[cst.Raise(exc=new_call)]),
        ]

    def _if_test(
        self, condition: cst.BaseExpression, extra_width: int, decision: Decision,
        indent: int | None = None,
    ) -> cst.BaseExpression:
        """The failure test, on one line where it was split only to fit the assert's width.

        `extra_width` counts the indent and the comment that share the line. With the
        `indent` of the `if`, a test too long for one line where the assert fitted (or
        was split over lines) is laid out as ruff and black split an `if` test.
        """
        line_length = decision.layout.line_length
        exact = decision.whole_number_order
        joined = one_line(condition)
        if joined is None:  # comments, magic trailing commas: as written
            return failure_test(condition, whole_numbers=exact)
        test = failure_test(joined, whole_numbers=exact)
        if extra_width + len(f"if {_NO_CODE.code_for_node(test)}:") <= line_length:
            return test
        split = joined is not condition
        if indent is not None and (split or extra_width + len(
                f"assert {_NO_CODE.code_for_node(condition)}") <= line_length):
            formatted = split_test(test, indent, self._default_indent(), line_length)
            if formatted is not None:
                return formatted
        return failure_test(condition, whole_numbers=exact)

    def _merged_test(
        self, outer: cst.BaseExpression, test: cst.BaseExpression, extra_width: int,
        decision: Decision,
    ) -> cst.BaseExpression:
        """`outer and <test>`: on one line if it fits, else one operand a line, in
        parentheses, as a formatter splits it."""
        left, right = _and_operand(outer), _and_operand(test)
        merged = cst.BooleanOperation(left=left, operator=cst.And(), right=right)
        code = _NO_CODE.code_for_node(merged)
        if "\n" not in code and extra_width + len(f"if {code}:") <= decision.layout.line_length:
            return merged
        unit = self._default_indent()
        hugged = _hug_last_parentheses(left, right, unit)
        if hugged is not None:
            opening = _NO_CODE.code_for_node(hugged).split("\n")[0]
            if "\n" not in _NO_CODE.code_for_node(left) and (
                    extra_width + len(f"if {opening}") <= decision.layout.line_length):
                return hugged
        return merged.with_changes(
            lpar=[cst.LeftParen(whitespace_after=cst.ParenthesizedWhitespace(
                indent=True, last_line=cst.SimpleWhitespace(unit)))],
            rpar=[cst.RightParen(whitespace_before=cst.ParenthesizedWhitespace(indent=True))],
            operator=cst.And(
                whitespace_before=cst.ParenthesizedWhitespace(
                    indent=True, last_line=cst.SimpleWhitespace(unit)),
                whitespace_after=cst.SimpleWhitespace(" "),
            ),
        )

    def leave_If(
        self, original_node: cst.If, updated_node: cst.If
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        """`if a:` holding only `assert b` becomes `if a and not b: raise ...` (SIM102)."""
        body = original_node.body
        if not (isinstance(body, cst.IndentedBlock) and len(body.body) == 1):
            return updated_node
        line = body.body[0]
        if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1
                and isinstance(line.body[0], cst.Assert)):
            return updated_node
        finding = self.finding_at(line.body[0])
        if finding is None or not finding.data.layout.merge_with_if:
            return updated_node
        indent = self.position(original_node).start.column
        comment = original_node.body.header.comment
        comment_width = len(comment.value) + 2 if comment is not None else 0
        (merged,) = self._rewrite_assert(
            line.body[0], finding.data, indent, comment_width, outer=original_node.test
        )
        self.done(finding)
        assert isinstance(merged, cst.If)
        inner_comments = list(line.leading_lines)
        new_body = merged.body.with_changes(header=body.header)
        raise_lines = list(new_body.body)
        raise_lines[0] = raise_lines[0].with_changes(leading_lines=inner_comments)
        if line.trailing_whitespace.comment is not None:
            raise_lines[-1] = raise_lines[-1].with_changes(
                trailing_whitespace=line.trailing_whitespace)
        return updated_node.with_changes(
            test=merged.test,
            body=new_body.with_changes(body=raise_lines, footer=body.footer),
            whitespace_before_test=cst.SimpleWhitespace(" "),
        )

    def _exception_call(self, assertion: cst.Assert, decision: Decision, indent: int,
                        *, fit: bool = True) -> cst.Call:
        """`ValueError(<message>)`, with the message on a line of its own when too long, and
        on one line when the message was split only to fit the assert; with `fit`, a
        message still too long is split (`_fitted`)."""
        line_length = decision.layout.line_length
        quote = decision.layout.quote or self._quote
        arguments = _message_arguments(assertion, decision, quote)
        if (decision.exception in _VALUE_MESSAGE_EXCEPTIONS and assertion.msg is not None
                and (value := _checked_value(assertion)) is not None):
            # `assert len(inputs) == 2, len(inputs)`: `ValueError(2)` would say nothing of
            # what was expected (ptflops, gsplat, round 18); say it where it fits a line
            room = line_length - indent - len(self._default_indent())
            message = _value_message(condition_text(assertion, decision), value, quote, room)
            if isinstance(message, cst.ConcatenatedString):
                # too long for one line: a part a line, inside the call's parentheses
                unit_space = cst.SimpleWhitespace(self._default_indent())
                message = message.with_changes(whitespace_between=cst.ParenthesizedWhitespace(
                    indent=True, last_line=unit_space))
                arguments = {
                    "args": [cst.Arg(value=message, whitespace_after_arg=(
                        cst.ParenthesizedWhitespace(indent=True)))],
                    "whitespace_before_args": cst.ParenthesizedWhitespace(
                        indent=True, last_line=unit_space),
                }
            elif message is not None:
                arguments = {"args": [cst.Arg(value=message)]}
        call = cst.Call(func=cst.Name(decision.exception), **arguments)
        joined = one_line(call) if "\n" in _NO_CODE.code_for_node(call) else None
        if (joined is not None and isinstance(joined, cst.Call)
                and not isinstance(joined.args[0].value, cst.ConcatenatedString)
                and indent + len(f"raise {_NO_CODE.code_for_node(joined)}") <= line_length):
            return joined
        unit = self._default_indent()
        if decision.layout.hugs_closing_bracket:
            return self._yapf_call(call, assertion, indent, line_length)
        if _aligned_for_the_assert(assertion.msg):
            return self._fitted(_exploded(call, unit, relay=True), assertion, indent,
                                line_length, fit)
        single = f"raise {_NO_CODE.code_for_node(call)}"
        if _opens_triple_quoted(call) and indent + len(single.split("\n")[0]) > line_length:
            # `raise ValueError("""long first line`: the string moves to a line of its own
            # inside the call where its first line then fits; its text stays as it is.
            exploded = _exploded(call, unit)
            first = _NO_CODE.code_for_node(exploded.args[0].value).split("\n")[0]
            if indent + len(unit) + len(first) <= line_length:
                return exploded
        if "\n" in single and _continued_in_string(call):
            # `raise ValueError(f"text \` + newline + `more")`: black moves the string to a
            # line of its own inside the call where the first or the last line is too long
            # (ruff's formatter always does); the string's own lines stay as they are.
            lines = single.split("\n")
            if decision.layout.formatter == "ruff" or max(
                    indent + len(lines[0]), len(lines[-1])) > line_length:
                return _exploded(call, unit)
            return call
        if "\n" in single:  # the message keeps its own layout
            return self._fitted(call, assertion, indent, line_length, fit)
        limit = line_length
        if decision.layout.long_lines_kept:
            # A file that keeps long lines without a formatter: as long as the assert
            longest_before = max(
                len(line) for line in _NO_CODE.code_for_node(assertion).splitlines()
            )
            limit = max(line_length, indent + longest_before)
        if indent + len(single) <= limit:
            return call
        return self._fitted(_exploded(call, unit), assertion, indent, line_length, fit)

    def _fitted(self, call: cst.Call, assertion: cst.Assert, indent: int,
                line_length: int, fit: bool = True) -> cst.Call:
        """A message on its own line that the line length no longer holds, where the
        assert's lines fitted (the message moved a level or two deeper), split as a
        maintainer keeps a string within it: implicitly concatenated parts, one a line,
        broken after a space. The formatters keep that layout (the parts do not fit on
        one line joined); a string too long for any line of its own is left alone."""
        if not fit:
            return call  # `msg = ...` first (flake8-errmsg): laid out where it is assigned
        unit = self._default_indent()
        width = indent + len(unit)
        (argument,) = call.args
        parts = _string_parts(argument.value)
        if parts is None or all(width + len(line.strip()) <= line_length
                                for line in _NO_CODE.code_for_node(argument.value).splitlines()):
            return call
        # The assert's lines at its own indentation (one unit less than the raise's).
        assert_indent = max(indent - len(unit), 0)
        if any(assert_indent + len(line) > line_length
               for line in _NO_CODE.code_for_node(assertion).splitlines()):
            return call  # the assert did not fit either: the project lives with long lines
        pieces: list[cst.SimpleString] = []
        for part in parts:
            pieces += _split_string(part, line_length - width)
        if len(pieces) < 2:
            return call
        between = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(unit))
        value: cst.BaseExpression = pieces[-1]
        for piece in reversed(pieces[:-1]):
            value = cst.ConcatenatedString(left=piece, right=value,  # type: ignore[arg-type]
                                           whitespace_between=between)
        return call.with_changes(args=[argument.with_changes(value=value)])

    def _yapf_call(self, call: cst.Call, assertion: cst.Assert, indent: int,
                   line_length: int) -> cst.Call:
        """`ValueError(<message>)` as yapf (pep8) lays it out: on one line where it fits,
        else the message on the next line, one level in, with the closing parenthesis
        after it; a message too long for that line is split into implicitly concatenated
        parts aligned after the opening parenthesis (one level in, on the next line,
        where that takes fewer lines), as the assert's own lines fitted."""
        unit = self._default_indent()
        if _aligned_for_the_assert(assertion.msg):
            return _hugged(_exploded(call, unit, relay=True), indent, line_length)
        (argument,) = call.args
        if "\n" not in _NO_CODE.code_for_node(argument.value) and not any(
                isinstance(node, cst.Comment) for node in _walk(call)):
            # A one-line message that was on a line of its own in the assert's parentheses
            call = call.with_changes(whitespace_before_args=cst.SimpleWhitespace(""), args=[
                argument.with_changes(whitespace_after_arg=cst.SimpleWhitespace(""))])
            (argument,) = call.args
        single = f"raise {_NO_CODE.code_for_node(call)}"
        lines = single.split("\n")
        if len(lines) > 1:
            # The message keeps its own layout where its lines still fit
            if (_string_parts(argument.value) is None or all(
                    indent + len(line) <= line_length for line in lines)):
                return call
            exploded = call
        else:
            if indent + len(single) <= line_length:
                return call
            exploded = _hugged(_exploded(call, unit), indent, line_length)
        # `"text {}".format(x)`: the text is split, `.format(x)` follows its last part
        formatted = argument.value
        text, suffix = formatted, ""
        if (isinstance(formatted, cst.Call) and isinstance(formatted.func, cst.Attribute)
                and formatted.func.attr.value == "format" and not formatted.lpar):
            text = formatted.func.value
            suffix = _NO_CODE.code_for_node(formatted)[len(_NO_CODE.code_for_node(text)):]
        parts = _string_parts(text)
        own_line = indent + len(unit) + len(_NO_CODE.code_for_node(argument.value)) + 1
        if len(lines) > 1:
            own_line = line_length + 1  # the parts no longer fit where they are
        assert_indent = max(indent - len(unit), 0)
        if parts is None or own_line <= line_length or any(
                assert_indent + len(line) > line_length
                for line in _NO_CODE.code_for_node(assertion).splitlines()):
            return exploded
        opening = f"raise {_NO_CODE.code_for_node(call.func)}("
        best: cst.Call | None = None
        fewest = 0
        for column, first in ((indent + len(opening), ""), (indent + len(unit), unit)):
            room = line_length - column - 1  # the closing parenthesis after the last part
            pieces = [piece for part in parts for piece in _split_string(part, room)]
            if suffix and len(pieces[-1].value) + len(suffix) > room:
                pieces[-1:] = _split_string(pieces[-1], room - len(suffix))
            if len(pieces) < 2 or any(len(piece.value) > room for piece in pieces) or (
                    len(pieces[-1].value) + len(suffix) > room):
                continue
            between = cst.ParenthesizedWhitespace(
                indent=True, last_line=cst.SimpleWhitespace(" " * (column - indent)))
            value: cst.BaseExpression = pieces[-1]
            for piece in reversed(pieces[:-1]):
                value = cst.ConcatenatedString(left=piece, right=value,  # type: ignore[arg-type]
                                               whitespace_between=between)
            if suffix:
                assert isinstance(formatted, cst.Call) and isinstance(formatted.func,
                                                                      cst.Attribute)
                value = formatted.with_changes(func=formatted.func.with_changes(value=value))
            before: cst.BaseParenthesizableWhitespace = (
                cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(first))
                if first else cst.SimpleWhitespace(""))
            if best is None or len(pieces) < fewest:  # aligned, unless that takes more lines
                fewest = len(pieces)
                best = call.with_changes(whitespace_before_args=before, args=[
                    argument.with_changes(value=value,
                                          whitespace_after_arg=cst.SimpleWhitespace(""))])
        return exploded if best is None else best

    def _default_indent(self) -> str:
        """One level of indentation as most of the file's blocks take it (`indent_unit`),
        not libcst's `default_indent`, its first block's: rraestorch's utilities (round 51)
        indent their first function by 8 spaces and everything else by 4."""
        if self._unit is None:
            self._unit = indent_unit(self.file)
        return self._unit

    def _block(self, body: Sequence[cst.BaseStatement]) -> cst.IndentedBlock:
        """An indented block of `body`, one level in (`_default_indent`)."""
        wrapper = self.context.wrapper
        unit = self._default_indent()
        explicit = wrapper is None or unit != wrapper.module.default_indent
        return cst.IndentedBlock(body=body, indent=unit if explicit else None)


# -- layout ------------------------------------------------------------------------------


def _has_assert(statements: Sequence[cst.BaseSmallStatement]) -> bool:
    return any(isinstance(statement, cst.Assert) for statement in statements)


def _as_lines(
    pieces: Sequence[Piece], trailing: cst.TrailingWhitespace
) -> list[cst.BaseStatement]:
    """Small statements grouped into lines between the new `if` blocks.

    The original line's trailing comment goes to the last line made, or to the header of
    the last `if` (`if x != y:  # comment`).
    """
    lines: list[cst.BaseStatement] = []
    group: list[cst.BaseSmallStatement] = []

    def close_group() -> None:
        if group:
            lines.append(cst.SimpleStatementLine(body=_end_group(group)))
            group.clear()

    for piece in pieces:
        if isinstance(piece, (cst.If, cst.SimpleStatementLine)):
            close_group()
            lines.append(piece)
        else:
            group.append(piece)
    close_group()
    last = lines[-1]
    if isinstance(last, cst.If):
        lines[-1] = last.with_changes(body=last.body.with_changes(header=trailing))
    else:
        lines[-1] = last.with_changes(trailing_whitespace=trailing)
    return lines


def _with_message_comment(pieces: list[Piece], comment: cst.Comment) -> list[Piece]:
    """The pieces with `comment` after the message of the (last) new `raise`: at the end
    of its line, or of the message's own line in a call split over lines."""
    pieces = list(pieces)
    for index in range(len(pieces) - 1, -1, -1):
        piece = pieces[index]
        if isinstance(piece, cst.If) and isinstance(piece.body, cst.IndentedBlock):
            lines = list(piece.body.body)
            lines[0] = _commented_message_line(lines[0], comment)
            pieces[index] = piece.with_changes(body=piece.body.with_changes(body=lines))
            break
    return pieces


def _commented_message_line(line: cst.BaseStatement, comment: cst.Comment) -> cst.BaseStatement:
    """`raise E("...")  # comment`, `raise E(\n    "...",  # comment\n)` or
    `msg = "..."  # comment`."""
    if not isinstance(line, cst.SimpleStatementLine):
        return line
    statement = line.body[0]
    call = statement.exc if isinstance(statement, cst.Raise) else None
    if isinstance(call, cst.Call) and call.args and isinstance(
            call.args[-1].whitespace_after_arg, cst.ParenthesizedWhitespace):
        *others, last = call.args
        closing = last.whitespace_after_arg
        assert isinstance(closing, cst.ParenthesizedWhitespace)
        if closing.first_line.comment is None:
            closing = closing.with_changes(first_line=cst.TrailingWhitespace(
                whitespace=cst.SimpleWhitespace("  "), comment=comment))
            new_call = call.with_changes(args=[*others, last.with_changes(
                whitespace_after_arg=closing)])
            return line.with_changes(body=[statement.with_changes(exc=new_call)])
        return line
    return line.with_changes(trailing_whitespace=cst.TrailingWhitespace(
        whitespace=cst.SimpleWhitespace("  "), comment=comment))


def _and_operand(expression: cst.BaseExpression) -> cst.BaseExpression:
    """The expression as an operand of `and`: parenthesised where it binds looser."""
    looser = (
        isinstance(expression, (cst.IfExp, cst.Lambda, cst.NamedExpr))
        or (isinstance(expression, cst.BooleanOperation)
            and isinstance(expression.operator, cst.Or))
    )
    if looser and not expression.lpar:
        return expression.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return expression


def _hug_last_parentheses(
    left: cst.BaseExpression, right: cst.BaseExpression, unit: str
) -> cst.BooleanOperation | None:
    """`left and not (\n    inner\n)`: how black and ruff split an `if` test whose last
    operand is `not (...)` (None for another last operand)."""
    if not (isinstance(right, cst.UnaryOperation) and right.expression.lpar
            and len(right.expression.lpar) == 1 and not right.lpar):
        return None
    inner = right.expression
    if "\n" in _NO_CODE.code_for_node(inner):
        return None
    inner = inner.with_changes(
        lpar=[cst.LeftParen(whitespace_after=cst.ParenthesizedWhitespace(
            indent=True, last_line=cst.SimpleWhitespace(unit)))],
        rpar=[cst.RightParen(whitespace_before=cst.ParenthesizedWhitespace(indent=True))],
    )
    return cst.BooleanOperation(
        left=left, operator=cst.And(), right=right.with_changes(expression=inner)
    )


def _end_group(statements: Sequence[cst.BaseSmallStatement]) -> list[cst.BaseSmallStatement]:
    """The statements of one line, with no semicolon after the last."""
    *head, last = statements
    return [*head, last.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)]


def _opens_triple_quoted(call: cst.Call) -> bool:
    """`E(<triple-quoted text...>`: the call's message is a string over several lines,
    opening on the call's line."""
    (argument,) = call.args
    value = argument.value
    if isinstance(call.whitespace_before_args, cst.ParenthesizedWhitespace) or not isinstance(
            value, (cst.SimpleString, cst.FormattedString)):
        return False
    code = _NO_CODE.code_for_node(value)
    return "\n" in code and value.quote in ('"""', "'''")


def _with_trailing_comma(call: cst.Call) -> cst.Call:
    """`f(\n    a\n)` → `f(\n    a,\n)`: what flake8-commas (COM812) asks of a call whose
    closing parenthesis is on a line of its own."""
    *head, last = call.args
    if (not isinstance(last.whitespace_after_arg, cst.ParenthesizedWhitespace)
            or isinstance(last.comma, cst.Comma)):
        return call
    return call.with_changes(args=[*head, last.with_changes(comma=cst.Comma())])


def _exploded(call: cst.Call, indent: str, *, relay: bool = False) -> cst.Call:
    """`f(a)` → `f(\n    a\n)`: the argument on its own line(s), one level in.

    With `relay`, the line breaks between the parts of a concatenated string move to the
    same indent (they were aligned under the assert, or continued with backslashes).
    """
    (argument,) = call.args
    value = argument.value
    if relay and isinstance(value, cst.ConcatenatedString):
        value = _hanging_parts(value, indent)
    if relay:
        # Backslash continuations (`"a " \` + `.format(...)`) become line breaks inside
        # the call's parentheses, at the message's indent.
        value = cast(cst.BaseExpression, value.visit(_Unbackslashed(indent)))
    closing = argument.whitespace_after_arg
    if isinstance(closing, cst.ParenthesizedWhitespace):
        closing = closing.with_changes(indent=True, last_line=cst.SimpleWhitespace(""))
    else:
        closing = cst.ParenthesizedWhitespace(indent=True)
    return call.with_changes(
        whitespace_before_args=cst.ParenthesizedWhitespace(
            indent=True, last_line=cst.SimpleWhitespace(indent)
        ),
        args=[argument.with_changes(value=value, whitespace_after_arg=closing)],
    )


def _hugged(call: cst.Call, indent: int, line_length: int) -> cst.Call:
    """`f(\n    a\n)` → `f(\n    a)`: the closing parenthesis after the last argument,
    as yapf keeps it where the line then fits (not where a comment ends the line); a
    line too long for it keeps the parenthesis on a line of its own, as yapf puts it."""
    *head, last = call.args
    closing = last.whitespace_after_arg
    if not isinstance(closing, cst.ParenthesizedWhitespace) or closing.first_line.comment:
        return call
    hugged = call.with_changes(
        args=[*head, last.with_changes(whitespace_after_arg=cst.SimpleWhitespace(""))])
    if indent + len(_NO_CODE.code_for_node(hugged).split("\n")[-1]) > line_length:
        return call
    return hugged


def _continued_in_string(call: cst.Call) -> bool:
    """`E(f"text \\` + newline + `more")`: the call's message is one string, not
    triple-quoted, continued over lines with backslashes inside it, opening on the
    call's line."""
    (argument,) = call.args
    value = argument.value
    return (not isinstance(call.whitespace_before_args, cst.ParenthesizedWhitespace)
            and not value.lpar and isinstance(value, (cst.SimpleString, cst.FormattedString))
            and value.quote in ('"', "'") and "\n" in _NO_CODE.code_for_node(value))


class _Unbackslashed(cst.CSTTransformer):
    """Each backslash continuation becomes a line break (no backslash) starting the next
    line at `indent`: the parentheses around the expression continue the line."""

    def __init__(self, indent: str) -> None:
        super().__init__()
        self.indent = indent

    def leave_SimpleWhitespace(
        self, original_node: cst.SimpleWhitespace, updated_node: cst.SimpleWhitespace
    ) -> cst.BaseParenthesizableWhitespace:
        if "\\" not in updated_node.value:
            return updated_node
        return cst.ParenthesizedWhitespace(indent=True,
                                           last_line=cst.SimpleWhitespace(self.indent))


def _continued_with_backslash(message: cst.BaseExpression) -> bool:
    return any(isinstance(node, cst.SimpleWhitespace) and "\\" in node.value
               for node in _walk(message))


def _hanging_parts(text: cst.ConcatenatedString, indent: str) -> cst.ConcatenatedString:
    """Each part of `"a" "b"` that starts a line starts it at `indent` (comments kept)."""
    between = text.whitespace_between
    if isinstance(between, cst.ParenthesizedWhitespace):
        between = between.with_changes(indent=True, last_line=cst.SimpleWhitespace(indent))
    elif "\\" in between.value:
        between = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(indent))
    right = text.right
    if isinstance(right, cst.ConcatenatedString):
        right = _hanging_parts(right, indent)
    return text.with_changes(whitespace_between=between, right=right)


def _string_parts(value: cst.BaseExpression) -> list[cst.SimpleString] | None:
    """The one-line, unparenthesized string literals `value` concatenates; None for any
    other message (an f-string, a triple-quoted string, a comment between parts)."""
    if value.lpar:
        return None
    if isinstance(value, cst.SimpleString):
        if value.quote not in ('"', "'") or "b" in value.prefix.lower():
            return None
        return [value]
    if isinstance(value, cst.ConcatenatedString):
        between = value.whitespace_between
        if isinstance(between, cst.ParenthesizedWhitespace) and (
                between.first_line.comment is not None
                or any(line.comment is not None for line in between.empty_lines)):
            return None
        left = _string_parts(value.left)
        right = _string_parts(value.right)
        return left + right if left is not None and right is not None else None
    return None


def _split_string(text: cst.SimpleString, room: int) -> list[cst.SimpleString]:
    """`text` as consecutive literals, each at most `room` wide where a break after a
    space allows: the space ends the piece before the break, as people write it."""
    prefix, quote = text.prefix, text.quote
    body = text.value[len(prefix) + len(quote):-len(quote)]
    overhead = len(prefix) + 2 * len(quote)
    breaks: list[int] = []
    enclosed: set[int] = set()  # breaks inside brackets of the text: "in [0, 1]"
    depth = 0
    for index, char in enumerate(body):
        depth += (char in "([{") - (char in ")]}")
        if char == " " and _unescaped(body, index) and 0 < index + 1 < len(body):
            breaks.append(index + 1)
            if depth > 0:
                enclosed.add(index + 1)
    pieces: list[str] = []
    start = 0
    while overhead + len(body) - start > room:
        fitting = [cut for cut in breaks if cut > start and overhead + cut - start <= room]
        outside = [cut for cut in fitting if cut not in enclosed]
        if outside and outside[-1] - start >= room // 2:  # not a stub: "expected "
            fitting = outside
        later = [cut for cut in breaks if cut > start]
        if fitting:
            cut = fitting[-1]
        elif later:
            cut = later[0]  # a word longer than the room: it overflows on its own
        else:
            break
        pieces.append(body[start:cut])
        start = cut
    pieces.append(body[start:])
    return [cst.SimpleString(f"{prefix}{quote}{piece}{quote}") for piece in pieces]


def _unescaped(body: str, index: int) -> bool:
    """Whether the character at `index` is not part of an escape (`\\ `)."""
    backslashes = 0
    while index - backslashes - 1 >= 0 and body[index - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 0


def _aligned_for_the_assert(message: cst.BaseExpression | None) -> bool:
    """A multi-line string concatenation laid out for the assert's line, not a call's.

    `assert x, "a" \\` + newline + `"b"`, or `assert x, ("a"` + newline + aligned `"b")`:
    in `raise ValueError(...)` those continuation lines would sit at odd columns.
    A message in parentheses with a line break right after `(` has a hanging indent,
    which moves along with the block.
    """
    if message is not None and not message.lpar and _continued_with_backslash(message):
        return True
    if not isinstance(message, cst.ConcatenatedString):
        return False
    if "\n" not in _NO_CODE.code_for_node(message):
        return False
    if not message.lpar:
        return True
    return not isinstance(message.lpar[0].whitespace_after, cst.ParenthesizedWhitespace)


# -- the new condition -------------------------------------------------------------------

_FLIPPED_OPERATORS: dict[type[cst.BaseCompOp], type[cst.BaseCompOp]] = {
    cst.Equal: cst.NotEqual,
    cst.NotEqual: cst.Equal,
    cst.Is: cst.IsNot,
    cst.IsNot: cst.Is,
    cst.In: cst.NotIn,
    cst.NotIn: cst.In,
}
# Flipped only between whole numbers: `not (x > nan)` is true where `x <= nan` is not.
_FLIPPED_ORDERINGS: dict[type[cst.BaseCompOp], type[cst.BaseCompOp]] = {
    cst.LessThan: cst.GreaterThanEqual,
    cst.LessThanEqual: cst.GreaterThan,
    cst.GreaterThan: cst.LessThanEqual,
    cst.GreaterThanEqual: cst.LessThan,
}
# Expressions that read the same without parentheses as an `if` test.
_BARE_IN_IF = (
    cst.Attribute, cst.BinaryOperation, cst.BooleanOperation, cst.Call, cst.Comparison,
    cst.Name, cst.Subscript, cst.UnaryOperation,
)
# Expressions `not` applies to without parentheses, and that read well that way.
_ATOMS = (
    cst.Attribute, cst.Call, cst.ConcatenatedString, cst.Dict, cst.Float, cst.FormattedString,
    cst.Integer, cst.List, cst.Name, cst.Set, cst.SimpleString, cst.Subscript,
)
_NO_CODE = cst.Module(body=[])


def failure_test(condition: cst.BaseExpression, *, whole_numbers: bool = False
                 ) -> cst.BaseExpression:
    """The test that is true exactly when the assert would fail; with `whole_numbers`
    (the decision knows the operands of its ordering cannot be NaN) `<` flips too."""
    if isinstance(condition, cst.Comparison) and len(condition.comparisons) == 1:
        target = condition.comparisons[0]
        flipped = _flipped(target.operator, whole_numbers=whole_numbers)
        if (whole_numbers and isinstance(target.operator, cst.GreaterThan)
                and _is_size(condition.left) and isinstance(target.comparator, cst.Integer)
                and target.comparator.evaluated_value == 0):
            flipped = cst.Equal(  # `len(x) > 0` fails where `len(x) == 0`
                whitespace_before=target.operator.whitespace_before,
                whitespace_after=target.operator.whitespace_after)
        if flipped is not None:
            return _without_flat_parentheses(
                condition.with_changes(comparisons=[target.with_changes(operator=flipped)])
            )
    implied = _failed_implication(condition)
    if implied is not None:
        return implied
    if isinstance(condition, cst.UnaryOperation) and isinstance(condition.operator, cst.Not):
        inner = condition.expression
        # `(not x)` → `(x)`: parentheses that may hold comments move to the operand.
        inner = inner.with_changes(
            lpar=[*condition.lpar, *inner.lpar], rpar=[*inner.rpar, *condition.rpar]
        )
        return _without_flat_parentheses(inner)
    if isinstance(condition, _ATOMS):
        condition = _without_flat_parentheses(condition)  # `not (x.ok)` → `not x.ok`
    elif not condition.lpar:
        condition = condition.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.UnaryOperation(operator=cst.Not(), expression=condition)


def _failed_implication(condition: cst.BaseExpression) -> cst.BaseExpression | None:
    """`a and <b fails>` for an implication `not a or b` on one line: how a person writes
    its failure, where `not (not a or b)` reads as a puzzle (rotary-embedding-torch's
    `assert not exists(offsets) or cache_if_possible`, round 19). None otherwise."""
    if not (isinstance(condition, cst.BooleanOperation) and isinstance(condition.operator, cst.Or)
            and not condition.lpar and "\n" not in _NO_CODE.code_for_node(condition)):
        return None
    left, right = condition.left, condition.right
    if len(left.lpar) == 1:  # `(not ring_attn) or divisible(...)`
        left = left.with_changes(lpar=[], rpar=[])
    if not (isinstance(left, cst.UnaryOperation) and isinstance(left.operator, cst.Not)
            and not left.lpar) or (isinstance(right, cst.BooleanOperation) and not right.lpar):
        return None
    premise = left.expression
    failed = failure_test(right)
    if isinstance(failed, cst.BooleanOperation) and not failed.lpar:
        failed = failed.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    if isinstance(premise, cst.BooleanOperation) and not premise.lpar:
        return None
    return cst.BooleanOperation(left=premise, operator=cst.And(), right=failed)


def split_test(
    test: cst.BaseExpression, indent: int, unit: str, line_length: int
) -> cst.BaseExpression | None:
    """A one-line `if` test too long for its line, split as ruff and black split it:
    `not (\n    a or b\n)`, `(\n    a\n    or b\n)`, `not f(\n    args\n)`; None where
    that takes more (an operand too long for its own line)."""
    if (isinstance(test, cst.UnaryOperation) and len(test.expression.lpar) == 1
            and not test.lpar):
        body = _split_operands(test.expression.with_changes(lpar=[], rpar=[]),
                               indent, unit, unit, line_length)
        if body is None:
            return None
        return test.with_changes(expression=_hanging_parentheses(body, unit))
    if isinstance(test, (cst.BooleanOperation, cst.Comparison)) and not test.lpar:
        body = _split_operands(test, indent, unit, unit, line_length)
        return None if body is None else _hanging_parentheses(body, unit)
    negated = isinstance(test, cst.UnaryOperation) and not test.lpar
    call = test.expression if isinstance(test, cst.UnaryOperation) else test
    if not isinstance(call, cst.Call) or call.lpar or not call.args or (
            not negated and test is not call):
        return None
    arguments = _NO_CODE.code_for_node(call.with_changes(func=cst.Name("f")))[2:-1]
    head = _NO_CODE.code_for_node(call.func)
    if (indent + len(unit) + len(arguments) > line_length
            or indent + len(f"if {'not ' if negated else ''}{head}(") > line_length):
        return None
    *others, last = call.args
    exploded = call.with_changes(
        whitespace_before_args=cst.ParenthesizedWhitespace(
            indent=True, last_line=cst.SimpleWhitespace(unit)),
        args=[*others, last.with_changes(
            whitespace_after_arg=cst.ParenthesizedWhitespace(indent=True))],
    )
    return test.with_changes(expression=exploded) if negated else exploded


def _hanging_parentheses(
    expression: cst.BaseExpression, inside: str, outside: str = ""
) -> cst.BaseExpression:
    """`(\n<inside>expression\n<outside>)`, relative to the statement's indent."""
    return expression.with_changes(
        lpar=[cst.LeftParen(whitespace_after=cst.ParenthesizedWhitespace(
            indent=True, last_line=cst.SimpleWhitespace(inside)))],
        rpar=[cst.RightParen(whitespace_before=cst.ParenthesizedWhitespace(
            indent=True, last_line=cst.SimpleWhitespace(outside)))],
    )


def _split_operands(
    expression: cst.BaseExpression, indent: int, prefix: str, unit: str, line_length: int
) -> cst.BaseExpression | None:
    """The expression on one line at `indent + prefix` if it fits; else a boolean
    operation or comparison with each operator starting a line of its own, an operand in
    parentheses too long for its line split the same way inside them (None if an operand
    line does not fit, or for another expression)."""
    width = indent + len(prefix)
    if width + len(_NO_CODE.code_for_node(expression)) <= line_length:
        return expression
    breaking = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(prefix))
    if isinstance(expression, (cst.BooleanOperation, cst.BinaryOperation)):
        operands: list[cst.BaseExpression] = []
        operators: list[cst.CSTNode] = []
        _flatten(expression, type(expression.operator), operands, operators)
        lead = len(_NO_CODE.code_for_node(expression.operator).strip()) + 1
        laid_out = []
        for position, operand in enumerate(operands):
            room = line_length - width - (lead if position else 0)
            if len(_NO_CODE.code_for_node(operand)) > room:
                if not isinstance(operand, _SPLITTABLE):
                    return None
                if not operand.lpar:  # split at its own operators, on the same lines
                    split = _split_operands(operand, indent, prefix, unit, line_length)
                    if split is None:
                        return None
                    operand = split
                elif len(operand.lpar) == 1:
                    inner = _split_operands(operand.with_changes(lpar=[], rpar=[]), indent,
                                            prefix + unit, unit, line_length)
                    if inner is None:
                        return None
                    operand = _hanging_parentheses(inner, prefix + unit, prefix)
                else:
                    return None
            laid_out.append(operand)
        result = laid_out[0]
        for operator, operand in zip(operators, laid_out[1:], strict=True):
            operator = operator.with_changes(
                whitespace_before=breaking, whitespace_after=cst.SimpleWhitespace(" "))
            if isinstance(expression, cst.BooleanOperation):
                result = cst.BooleanOperation(left=result, operator=operator, right=operand)
            else:
                result = cst.BinaryOperation(left=result, operator=operator, right=operand)
        return result
    if isinstance(expression, cst.Comparison):
        lines = [_NO_CODE.code_for_node(expression.left)] + [
            _NO_CODE.code_for_node(target) for target in expression.comparisons]
        if any(width + len(line.strip()) > line_length for line in lines):
            return None
        return expression.with_changes(comparisons=[
            target.with_changes(
                operator=target.operator.with_changes(whitespace_before=breaking))
            for target in expression.comparisons
        ])
    return None


_SPLITTABLE = (cst.BooleanOperation, cst.BinaryOperation, cst.Comparison)


def _flatten(expression: cst.BaseExpression, operator_type: type,
             operands: list[cst.BaseExpression], operators: list[cst.CSTNode]) -> None:
    """`a or b or c` → [a, b, c] and the operators between them (an operand in
    parentheses, or with another operator, stays one operand)."""
    if (isinstance(expression, (cst.BooleanOperation, cst.BinaryOperation))
            and not expression.lpar and isinstance(expression.operator, operator_type)):
        _flatten(expression.left, operator_type, operands, operators)
        operators.append(expression.operator)
        _flatten(expression.right, operator_type, operands, operators)
    else:
        operands.append(expression)


class _OneLine(cst.CSTTransformer):
    """Every line break in an expression replaced by the space a formatter puts there."""

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> cst.CSTNode:
        changes = {}
        for name in (item.name for item in dataclasses.fields(updated_node)):
            value = getattr(updated_node, name)
            if isinstance(value, cst.ParenthesizedWhitespace) or (
                isinstance(value, cst.SimpleWhitespace) and "\\" in value.value
            ):
                tight = (type(updated_node), name) in _NO_SPACE
                changes[name] = cst.SimpleWhitespace("" if tight else " ")
        return updated_node.with_changes(**changes) if changes else updated_node


# Whitespace that is empty on one line: inside brackets, before commas, around dots, ...
_NO_SPACE = frozenset(
    {
        (cst.Arg, "whitespace_after_arg"), (cst.Arg, "whitespace_after_star"),
        (cst.AssignEqual, "whitespace_after"), (cst.AssignEqual, "whitespace_before"),
        (cst.Call, "whitespace_after_func"), (cst.Call, "whitespace_before_args"),
        (cst.Colon, "whitespace_before"), (cst.Comma, "whitespace_before"),
        (cst.DictElement, "whitespace_before_colon"), (cst.Dot, "whitespace_after"),
        (cst.Dot, "whitespace_before"), (cst.LeftCurlyBrace, "whitespace_after"),
        (cst.LeftParen, "whitespace_after"), (cst.LeftSquareBracket, "whitespace_after"),
        (cst.RightCurlyBrace, "whitespace_before"), (cst.RightParen, "whitespace_before"),
        (cst.RightSquareBracket, "whitespace_before"),
        (cst.StarredElement, "whitespace_before_value"), (cst.Subscript, "whitespace_after_value"),
    }
)


def one_line(expression: cst.BaseExpression) -> cst.BaseExpression | None:
    """The expression joined onto one line, or None if that would lose something.

    Comments, multi-line strings and trailing commas (which ask a formatter to keep one
    item per line) stay as they are: the expression is then not joined.
    """
    if "\n" not in _NO_CODE.code_for_node(expression):
        return expression
    for node in _walk(expression):
        if isinstance(node, cst.Comment):
            return None
        if isinstance(node, (cst.SimpleString, cst.FormattedStringText)) and "\n" in node.value:
            return None
        if _has_trailing_comma(node):
            return None
    joined = expression.visit(_OneLine())
    if not isinstance(joined, cst.BaseExpression) or "\n" in _NO_CODE.code_for_node(joined):
        return None
    return joined


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    yield node
    for child in node.children:
        yield from _walk(child)


def _has_trailing_comma(node: cst.CSTNode) -> bool:
    items: Sequence[cst.CSTNode] = ()
    if isinstance(node, cst.Call):
        items = node.args
    elif isinstance(node, cst.Tuple) and len(node.elements) == 1:
        return False  # `(N,)`: the comma makes the tuple; black does not keep it split
    elif isinstance(node, (cst.List, cst.Tuple, cst.Set, cst.Dict)):
        items = node.elements
    elif isinstance(node, cst.Subscript):
        items = node.slice
    return bool(items) and isinstance(getattr(items[-1], "comma", None), cst.Comma)


def _is_size(expression: cst.BaseExpression) -> bool:
    """`len(x)`, `x.numel()`, `x.shape[i]`, `x.size(i)`: never negative."""
    if isinstance(expression, cst.Call):
        func = expression.func
        return ((isinstance(func, cst.Name) and func.value == "len")
                or (isinstance(func, cst.Attribute) and func.attr.value in ("numel", "size")))
    return (isinstance(expression, cst.Subscript) and isinstance(expression.value, cst.Attribute)
            and expression.value.attr.value == "shape")


def _flipped(operator: cst.BaseCompOp, *, whole_numbers: bool = False
             ) -> cst.BaseCompOp | None:
    flipped_type = _FLIPPED_OPERATORS.get(type(operator))
    if flipped_type is None and whole_numbers:
        flipped_type = _FLIPPED_ORDERINGS.get(type(operator))
    if flipped_type is None:
        return None
    before = operator.whitespace_before  # type: ignore[attr-defined]
    after = operator.whitespace_after  # type: ignore[attr-defined]
    if flipped_type in (cst.IsNot, cst.NotIn):
        return flipped_type(  # type: ignore[call-arg]
            whitespace_before=before, whitespace_between=cst.SimpleWhitespace(" "),
            whitespace_after=after,
        )
    return flipped_type(whitespace_before=before, whitespace_after=after)  # type: ignore[call-arg]


def _without_flat_parentheses(expression: cst.BaseExpression) -> cst.BaseExpression:
    """`(a != b)` → `a != b` when the parentheses hold no line break or comment."""
    if (
        expression.lpar
        and isinstance(expression, _BARE_IN_IF)
        and "\n" not in _NO_CODE.code_for_node(expression)
        and "\\" not in _NO_CODE.code_for_node(expression)
    ):
        return expression.with_changes(lpar=[], rpar=[])
    return expression


# -- the new message ---------------------------------------------------------------------

# Messages whose own parentheses can become the call's: `("a" "b")` → `ValueError("a" "b")`.
# A tuple's parentheses belong to the value (`ValueError((a, b))` takes one argument).
_MESSAGES_WITHOUT_PARENTHESES = (
    cst.Attribute, cst.BinaryOperation, cst.Call, cst.ConcatenatedString, cst.FormattedString,
    cst.Name, cst.SimpleString, cst.Subscript,
)


def _message_arguments(
    assertion: cst.Assert, decision: Decision, quote: str = '"'
) -> dict[str, object]:
    """The `args` (and the layout inside the parentheses) of `ValueError(...)`; a
    generated message in `quote` unless the text needs the other."""
    message = assertion.msg
    if message is None or (isinstance(message, cst.SimpleString)
                           and message.evaluated_value == ""):
        # `assert c, ""` (deepspeed's comm backend): an empty message would hide the
        # condition the AssertionError's traceback showed; say it instead
        expected = f"expected {condition_text(assertion, decision)}"
        text = cst.SimpleString(string_literal(expected, quote))
        return {"args": [cst.Arg(value=text)]}
    if message.lpar and isinstance(message, _MESSAGES_WITHOUT_PARENTHESES):
        # A message in parentheses spans lines: they become the call's, layout and all.
        opening, closing = message.lpar[0], message.rpar[-1]
        inner = message.with_changes(lpar=message.lpar[1:], rpar=message.rpar[:-1])
        return {
            "args": [cst.Arg(value=inner, whitespace_after_arg=closing.whitespace_before)],
            "whitespace_before_args": opening.whitespace_after,
        }
    return {"args": [cst.Arg(value=message)]}


# What a message that is the checked value reads of it: `x.shape`, `len(x)`, `type(x)`
_VALUE_ATTRIBUTES = ("shape", "dtype", "ndim", "device")
_VALUE_FUNCTIONS = ("len", "type")
# The exceptions that then say what was expected (`FileNotFoundError(path)` is the idiom)
_VALUE_MESSAGE_EXCEPTIONS = ("ValueError", "TypeError", "IndexError")


def _checked_value(assertion: cst.Assert) -> str | None:
    """The message's code where it is the value the condition checks, not a text: it
    appears in the condition (`assert mode in MODES, mode`), or is the shape, dtype,
    length or type of something the condition reads (`assert x.dim() == 4, x.shape`).
    None for a string, a name holding one (`msg`), or code an f-string cannot hold."""
    message = assertion.msg
    if message is None or isinstance(message, cst.BaseString) or not isinstance(
            message, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)):
        return None
    code = _NO_CODE.code_for_node(message.with_changes(lpar=[], rpar=[]))
    if "\n" in code or any(character in code for character in "\\{}'\"#"):
        return None
    try:
        value, condition = ast.parse(code, mode="eval").body, ast.parse(
            _NO_CODE.code_for_node(assertion.test).strip(), mode="eval").body
    except SyntaxError:
        return None
    read = {ast.dump(node) for node in ast.walk(condition)}
    if ast.dump(value) in read:
        return code
    base: ast.expr | None = None
    if isinstance(value, ast.Attribute) and value.attr in _VALUE_ATTRIBUTES:
        base = value.value
    elif isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords and (
            isinstance(value.func, ast.Name) and value.func.id in _VALUE_FUNCTIONS):
        base = value.args[0]
    elif (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
          and value.func.attr == "size" and not value.keywords):
        base = value.func.value
    return code if base is not None and ast.dump(base) in read else None


def _value_message(condition: str, value: str, quote: str,
                   room: int) -> cst.FormattedString | cst.ConcatenatedString | None:
    """`f"expected <condition>, got {<value>}"`, where it fits in `room` columns (the
    call's own line); else the two halves on lines of their own, `"expected
    <condition>, "` and `f"got {<value>}"`: the value alone would no longer say what was
    checked (torch-to-nnef-llm's `ValueError(output_archive)` for a suffix check, round
    46). None where the condition holds a backslash or both quotes, or is too long for a
    line of its own: the message stays the value."""
    if "\\" in condition:
        return None
    literal = condition.replace("{", "{{").replace("}", "}}")
    other = "'" if quote == '"' else '"'
    for mark in (quote, other):
        if mark not in condition:
            text = f"f{mark}expected {literal}, got {{{value}}}{mark}"
            if len(text) <= room:
                parsed = cst.parse_expression(text)
                return parsed if isinstance(parsed, cst.FormattedString) else None
            first = cst.parse_expression(f"{mark}expected {condition}, {mark}")
            second = cst.parse_expression(f"f{quote}got {{{value}}}{quote}")
            if not isinstance(first, cst.SimpleString) or len(first.value) > room or \
                    not isinstance(second, cst.FormattedString):
                return None  # a condition too long for a line of its own
            return cst.ConcatenatedString(
                left=first, right=second,
                whitespace_between=cst.ParenthesizedWhitespace(indent=True))
    return None


def condition_text(assertion: cst.Assert, decision: Decision) -> str:
    """The condition as written, joined onto one line; else as CPython writes it."""
    condition = assertion.test
    if len(condition.lpar) == 1:
        condition = condition.with_changes(lpar=[], rpar=[])
    joined = one_line(condition)
    return decision.condition_text if joined is None else _NO_CODE.code_for_node(joined)


def string_literal(text: str, prefer: str = '"') -> str:
    """A plain (never f-) string literal for `text`, in the `prefer`red quotes unless
    those need escapes and the others do not."""
    other = "'" if prefer == '"' else '"'
    quote = other if prefer in text and other not in text else prefer
    escaped = []
    for character in text:
        if character in ("\\", quote):
            escaped.append("\\" + character)
        elif not character.isprintable():
            escaped.append(character.encode("unicode_escape").decode("ascii"))
        else:
            escaped.append(character)
    literal = quote + "".join(escaped) + quote
    return literal if ast.literal_eval(literal) == text else repr(text)

