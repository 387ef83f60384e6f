"""Making a codemod's decided changes with libcst: the only place `apply` needs libcst.

`check()` decided the changes on CPython's tree (`torchfix.rewrite.contract`). Here an
editor visits libcst's tree of the same text and makes them: it finds each finding's
node by its span (libcst and CPython agree on where an expression starts and ends,
parentheses excluded) and rewrites it, keeping everything else byte for byte. Only the
statements holding a finding are visited.

Codemods with simple changes use the shared primitives (`PrimitiveEditor`); the others
subclass `Editor` and make their changes in `leave_<Node>` methods, asking
`finding_at(original_node)` whether a change was decided there. A finding that no
editor step made is an error: `apply` never silently does less than `check` reports.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor

from torchfix.rewrite.contract import (
    AddImport,
    AddKeyword,
    Codemod,
    CreateFile,
    Edit,
    FileContext,
    Finding,
    RemoveImport,
    RemoveKeyword,
    RenameKeyword,
    ReplaceNode,
    Span,
)
from torchfix.rewrite.edits import append_argument, insert_imports, keyword, statement_indexes
from torchfix.rewrite.import_order import NewImport, member_key, plan_imports
from torchfix.rewrite.layout import line_length, sets_no_line_length
from torchfix.rewrite.transformer import Focus, FocusedTransformer, TransformerSettings


class EditError(Exception):
    """A decided change could not be made (a torchfix bug: the file is left unchanged)."""


@dataclass(frozen=True)
class EditSettings:
    """What an editor is given: the file as `check()` saw it and the changes to make."""

    file: FileContext
    findings: Sequence[Finding]
    options: Mapping[str, Any] = field(default_factory=dict)


class Editor(FocusedTransformer):
    """Base class of libcst editors. `finding_at(node)` says what was decided there."""

    def __init__(self, context: CodemodContext, settings: TransformerSettings,
                 edit: EditSettings) -> None:
        super().__init__(context, settings)
        self.edit = edit
        self.file = edit.file
        self._by_span: dict[Span, list[Finding]] = {}
        for finding in edit.findings:
            self._by_span.setdefault(self.file.span(finding.node), []).append(finding)
        self.made: set[int] = set()  # ids of the findings whose change was made
        self._new_imports: list[NewImport] = []  # placed by `_place_imports`
        self._joined: dict[str, list[str]] = {}  # names for a `from` import there already
        self._imported: tuple[set[str], set[str]] | None = None
        self._line_limit: int | None = None  # 0: none (see `_fits_moved`)

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:
        result = super().on_leave(original_node, updated_node)
        if type(original_node) is cst.Call and type(result) is cst.Call and \
                result.func is not original_node.func:  # type: ignore[attr-defined]
            return self._realigned(original_node, result)  # type: ignore[arg-type]
        return result

    def _realigned(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        """`updated` with its visually aligned continuation lines moved with its bracket
        (`realigned`), where they still fit the line length."""
        if not self._statements:
            return updated
        bracket = self.position(original.func).end.column + len(
            original.whitespace_after_func.value)  # type: ignore[attr-defined]
        line = self.file.lines[self.position(self._statements[-1]).start.line - 1]
        block = len(line) - len(line.lstrip(" \t"))
        return realigned(original, updated, bracket, block,
                         lambda by: self._fits_moved(original, by))

    def _fits_moved(self, call: cst.CSTNode, by: int) -> bool:
        """Whether the lines after the first of `call` (of the tree being visited) still
        fit the line length moved `by` columns to the right; a file that keeps longer
        code lines without a formatter saying so sets no limit."""
        if by <= 0:
            return True
        if self._line_limit is None:
            limit = line_length(self.file)
            self._line_limit = 0 if sets_no_line_length(self.file, limit) else limit
        if not self._line_limit:
            return True
        position = self.position(call)
        return all(len(line.rstrip("\r\n")) + by <= self._line_limit
                   for line in self.file.lines[position.start.line:position.end.line])

    def span_of(self, node: cst.CSTNode) -> Span:
        position = self.position(node)
        return Span(position.start.line, position.start.column,
                    position.end.line, position.end.column)

    def finding_at(self, node: cst.CSTNode) -> Finding | None:
        """The finding decided for the code `node` (of the tree being visited) spans."""
        if not self._by_span:
            return None
        found = self._by_span.get(self.span_of(node))
        if not found:
            return None
        for finding in found:
            if id(finding) not in self.made and _same_kind(finding, node):
                return finding
        return None

    def findings_at(self, node: cst.CSTNode) -> list[Finding]:
        if not self._by_span:
            return []
        return [f for f in self._by_span.get(self.span_of(node), ())
                if id(f) not in self.made and _same_kind(f, node)]

    def done(self, finding: Finding) -> None:
        """Mark `finding` as made (its change is in the returned tree)."""
        self.made.add(id(finding))
        for edit in finding.edits:
            if isinstance(edit, AddImport):
                if self._imported is None:
                    self._imported = _imported_modules(self.file.tree)
                new = _new_statement(self.file, edit, self._imported)
                if new is None and edit.name is not None and edit.alias is None and (
                        edit.module in self._imported[0]):
                    joined = self._joined.setdefault(edit.module, [])
                    if edit.name not in joined:
                        joined.append(edit.name)
                elif new is None:
                    AddImportsVisitor.add_needed_import(self.context, edit.module, edit.name,
                                                        edit.alias)
                elif new not in self._new_imports:
                    self._new_imports.append(new)
            elif isinstance(edit, RemoveImport):
                RemoveImportsVisitor.remove_unused_import(self.context, edit.module, edit.name,
                                                          edit.alias)


    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        updated = self._place_imports(tree, super().transform_module_impl(tree))
        if self._joined:
            updated = self._join_imports(updated)
        # Imports to remove are removed after libcst adds its own (as it orders them), by
        # `_RemoveImports`, which keeps the blank line a removed import stood after.
        self._removals = self.context.scratch.pop(RemoveImportsVisitor.CONTEXT_KEY, None)
        return updated

    def transform_module(self, tree: cst.Module) -> cst.Module:
        self._removals = None
        updated = super().transform_module(tree)
        if not self._removals:
            return updated
        self.context.scratch[RemoveImportsVisitor.CONTEXT_KEY] = self._removals
        try:
            return _RemoveImports(self.context).transform_module(updated)
        finally:
            self.context.scratch.pop(RemoveImportsVisitor.CONTEXT_KEY, None)

    def _join_imports(self, module: cst.Module) -> cst.Module:
        """`module` with the names for modules it has a `from` import of already put into
        the first such top-level statement where isort puts them (round 13: anomalib's
        `from torchvision.transforms.v2 import CenterCrop, ...` got `ToDtype, ToImage`
        in front, and ruff's I001 failed); libcst's AddImportsVisitor adds the ones with
        no such top-level statement, or one it cannot lay out, as before."""
        body = list(module.body)
        for index, statement in enumerate(body):
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            parts = list(statement.body)
            for position, part in enumerate(parts):
                if not isinstance(part, cst.ImportFrom) or part.relative or part.module is None:
                    continue
                names = self._joined.get(_dotted_cst(part.module))
                joined = _joined_names(part, names) if names else None
                if joined is not None:
                    parts[position] = part.with_changes(names=joined)
                    del self._joined[_dotted_cst(part.module)]
            body[index] = statement.with_changes(body=parts)
        for module_name, names in self._joined.items():
            for name in names:
                AddImportsVisitor.add_needed_import(self.context, module_name, name)
        self._joined = {}
        return module.with_changes(body=body)

    def _place_imports(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        """`updated` with the new import statements where isort would put them
        (`torchfix.rewrite.import_order.plan_imports`, as atomic-save places its own). The
        plan counts the file's top-level statements: where the editor added or removed
        some, libcst's AddImportsVisitor adds them instead (after the last import)."""
        if not self._new_imports:
            return updated
        if len(updated.body) != len(original.body):
            for new in self._new_imports:
                AddImportsVisitor.add_needed_import(self.context, new.module, new.name)
            return updated
        plan = plan_imports(self.file, _merged(self._new_imports))
        return insert_imports(updated, plan, statement_indexes(original))[0]


def _new_statement(file: FileContext, edit: AddImport,
                   imported: tuple[set[str], set[str]]) -> NewImport | None:
    """The import statement `edit` adds, when it needs one of its own: no statement of
    the file imports from its module already (`imported`: the modules of the file's
    `from` imports and of its plain imports; libcst's AddImportsVisitor adds the name to
    such a statement, or sees it is there), and it binds no alias."""
    if edit.alias is not None or edit.module in imported[0 if edit.name else 1]:
        return None
    return NewImport(edit.module, edit.name)


def _merged(imports: Sequence[NewImport]) -> list[NewImport]:
    """One `from module import a, b` per module, its names in isort's `order-by-type`
    (CONSTANTS, Classes, the rest), as ruff's I001 wants them."""
    names: dict[str, list[str]] = {}
    plain: list[NewImport] = []
    for new in imports:
        if new.name is None:
            plain.append(new)
        else:
            names.setdefault(new.module, []).append(new.name)
    return [*plain, *(NewImport(module, ", ".join(sorted(members, key=member_key)))
                      for module, members in names.items())]


def _dotted_cst(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Attribute):
        return f"{_dotted_cst(node.value)}.{node.attr.value}"
    return node.value if isinstance(node, cst.Name) else ""


def _joined_names(statement: cst.ImportFrom, names: Sequence[str]
                  ) -> list[cst.ImportAlias] | None:
    """The statement's names with `names` among them: in isort's order where the names
    are in it (`member_key`), else after them; the separator its names use. None where
    it imports `*`, has a name already, or its one name sits between parentheses over
    lines (no separator to copy)."""
    if isinstance(statement.names, cst.ImportStar):
        return None
    aliases = list(statement.names)
    present = {alias.evaluated_name for alias in aliases if alias.asname is None}
    new = [name for name in names if name not in present]
    if not new:
        return aliases
    if len(aliases) > 1 and isinstance(aliases[0].comma, cst.Comma):
        separator = aliases[0].comma
    elif statement.lpar is None:
        separator = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    else:
        return None
    keys = [member_key(alias.evaluated_name) for alias in aliases]
    in_order = keys == sorted(keys)
    last_comma = aliases[-1].comma
    aliases[-1] = aliases[-1].with_changes(comma=separator)
    for name in sorted(new, key=member_key):
        alias = cst.ImportAlias(name=cst.parse_expression(name), comma=separator)  # type: ignore[arg-type]
        at = next((i for i, other in enumerate(aliases) if in_order
                   and other.asname is None and member_key(other.evaluated_name)
                   > member_key(name)), len(aliases))
        aliases.insert(at, alias)
    aliases[-1] = aliases[-1].with_changes(comma=last_comma)
    return aliases


def _imported_modules(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(modules of the absolute `from` imports, modules of the plain imports) of `tree`."""
    froms: set[str] = set()
    plain: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module and (
                any(alias.asname is None for alias in node.names)):
            froms.add(node.module)  # (ruff keeps `as` imports apart: a new statement)
        elif isinstance(node, ast.Import):
            plain.update(alias.name for alias in node.names)
    return froms, plain


# What each CPython node type is called in libcst, for telling apart nodes with one span.
_KINDS: dict[str, tuple[type[cst.CSTNode], ...]] = {
    "Call": (cst.Call,),
    "Name": (cst.Name,),
    "Attribute": (cst.Attribute,),
    "Subscript": (cst.Subscript,),
    "BinOp": (cst.BinaryOperation,),
    "BoolOp": (cst.BooleanOperation,),
    "UnaryOp": (cst.UnaryOperation,),
    "Compare": (cst.Comparison,),
    "Constant": (cst.SimpleString, cst.ConcatenatedString, cst.Integer, cst.Float,
                 cst.Imaginary, cst.Name, cst.Ellipsis),
    "JoinedStr": (cst.FormattedString,),
    "Tuple": (cst.Tuple,),
    "List": (cst.List,),
    "Dict": (cst.Dict,),
    "Lambda": (cst.Lambda,),
    "IfExp": (cst.IfExp,),
    "Await": (cst.Await,),
    "keyword": (cst.Arg,),
    "arg": (cst.Param,),
    "alias": (cst.ImportAlias,),
    "Import": (cst.Import,),
    "ImportFrom": (cst.ImportFrom,),
    "Assert": (cst.Assert,),
    "Assign": (cst.Assign,),
    "AugAssign": (cst.AugAssign,),
    "AnnAssign": (cst.AnnAssign,),
    "Expr": (cst.Expr,),
    "Return": (cst.Return,),
    "Raise": (cst.Raise,),
    "Pass": (cst.Pass,),
    "ExceptHandler": (cst.ExceptHandler,),
    "With": (cst.With,),
    "If": (cst.If,),
    "For": (cst.For,),
    "FunctionDef": (cst.FunctionDef,),
    "AsyncFunctionDef": (cst.FunctionDef,),
    "ClassDef": (cst.ClassDef,),
}


def _same_kind(finding: Finding, node: cst.CSTNode) -> bool:
    kinds = _KINDS.get(type(finding.node).__name__)
    return kinds is None or isinstance(node, kinds)


class PrimitiveEditor(Editor):
    """Makes the shared edit primitives the findings carry."""

    def __init__(self, context: CodemodContext, settings: TransformerSettings,
                 edit: EditSettings) -> None:
        super().__init__(context, settings, edit)
        # span → (finding, its located edits); a finding is made when all of them are.
        self._located: dict[Span, list[tuple[Finding, Edit]]] = {}
        self._pending: dict[int, int] = {}
        for finding in edit.findings:
            located = [e for e in finding.edits
                       if not isinstance(e, (AddImport, RemoveImport, CreateFile))]
            if not located:
                self.done(finding)
                continue
            self._pending[id(finding)] = len(located)
            for primitive in located:
                self._located.setdefault(self.file.span(primitive.target), []).append(
                    (finding, primitive))

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:
        result = super().on_leave(original_node, updated_node)
        if not self._located or not isinstance(original_node, _EDITABLE):
            return result
        todo = self._located.get(self.span_of(original_node))
        if not todo:
            return result
        for finding, primitive in list(todo):
            if not _same_kind_node(primitive.target, original_node):
                continue
            result = _apply(primitive, result)
            todo.remove((finding, primitive))
            self._pending[id(finding)] -= 1
            if self._pending[id(finding)] == 0:
                self.done(finding)
        return result


def realigned(original: cst.Call, updated: cst.Call, bracket: int, block: int,
              fits: Callable[[int], bool]) -> cst.Call:
    """`updated` (`original` with a callee of another length: `torch.save(` renamed
    `atomic_save(`) with the continuation lines that are aligned with its opening bracket
    (at column `bracket`, or right of it) moved as far as the bracket moved, so that they
    stay aligned with it (pycodestyle's E127 and E128; modelscope's flake8, round 32).
    Lines left of the bracket hang from the statement's indentation (`block` columns), as
    a dict's do in `torch.save({` (deeppavlov, round 33): they stay. So does every line
    of a call whose arguments start on a line of their own, and of a call whose lines
    would then outgrow the line length (`fits(by)` says): a long line is the worse error."""
    if isinstance(updated.whitespace_before_args, cst.ParenthesizedWhitespace):
        return updated
    before, after = _opening(original), _opening(updated)
    if before is None or after is None or before == after or not fits(after - before):
        return updated
    shift = _ContinuationShift(after - before, bracket + 1, block)
    args = [arg.visit(shift) for arg in updated.args]
    return updated.with_changes(args=args) if shift.moved else updated


def _opening(call: cst.Call) -> int | None:
    """How far the call's opening bracket is from the start of its callee; None where the
    callee spans lines."""
    code = _EMPTY_MODULE.code_for_node(call.func) + call.whitespace_after_func.value
    return None if "\n" in code else len(code)


_EMPTY_MODULE = cst.Module(body=[])


class _ContinuationShift(cst.CSTTransformer):
    """Moves `by` columns every continuation line inside the visited node that starts at
    column `first` or right of it (`block`: the columns an indented line's indentation
    adds to what its whitespace holds)."""

    def __init__(self, by: int, first: int, block: int) -> None:
        super().__init__()
        self.by, self.first, self.block = by, first, block
        self.moved = False

    def leave_ParenthesizedWhitespace(self, original_node: cst.ParenthesizedWhitespace,
                                      updated_node: cst.ParenthesizedWhitespace
                                      ) -> cst.ParenthesizedWhitespace:
        spaces = updated_node.last_line.value
        column = len(spaces) + (self.block if updated_node.indent else 0)
        if column < self.first:
            return updated_node  # hanging from the statement, not from the bracket
        if self.by > 0:
            spaces += " " * self.by
        elif len(spaces) >= -self.by and not spaces[self.by:].strip():
            spaces = spaces[:self.by]
        else:
            return updated_node  # too little room to move: left as it was
        self.moved = True
        return updated_node.with_changes(last_line=cst.SimpleWhitespace(spaces))


_EDITABLE = (cst.BaseExpression, cst.BaseSmallStatement, cst.BaseCompoundStatement,
             cst.SimpleStatementLine, cst.Arg)


class _RemoveImports(RemoveImportsVisitor):
    """libcst's RemoveImportsVisitor, except that a statement it removes hands the blank
    lines before it to the statement after it: removing `import torch` from

        from typing import Any

        import torch
        from datasets import Dataset

    keeps the blank line between the standard library's block and the next (isort's
    sections; ruff's I001 otherwise)."""

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        body = _blank_lines_kept(original_node.body, updated_node.body)
        if body and original_node.body and _removed(original_node.body[0], body[0]):
            # The file's first statement went: the next one starts the file (after its
            # header), with no blank lines of its own above it.
            body[0] = body[0].with_changes(leading_lines=[
                line for line in body[0].leading_lines if line.comment is not None])
        return updated_node.with_changes(body=body)

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock,
                            updated_node: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated_node.with_changes(
            body=_blank_lines_kept(original_node.body, updated_node.body))


def _blank_lines_kept(original: Sequence[cst.BaseStatement],
                      updated: Sequence[cst.BaseStatement]) -> list[cst.BaseStatement]:
    """`updated` (`original` less the import lines removed, the others perhaps edited),
    each statement after a removed one given the removed one's leading blank lines where
    it has none of its own."""
    kept = list(updated)
    if len(kept) == len(original):
        return kept
    result: list[cst.BaseStatement] = []
    index = 0
    carried: list[cst.EmptyLine] = []
    for statement in original:
        if index < len(kept) and not _removed(statement, kept[index]):
            new = kept[index]
            index += 1
            lines = list(new.leading_lines)
            if carried and (not lines or lines[0].comment is not None):
                new = new.with_changes(leading_lines=[*carried, *lines])
            carried = []
            result.append(new)
            continue
        blanks = []
        for line in statement.leading_lines:
            if line.comment is not None:
                break
            blanks.append(line)
        carried = carried or blanks
    if index != len(kept):
        return list(updated)  # not a removal this understands: leave it
    return result


def _removed(statement: cst.BaseStatement, candidate: cst.BaseStatement) -> bool:
    """Whether `statement` is an import line that is gone, `candidate` (the next statement
    left) being some later one: it is kept as it was, or as an import line of the same
    modules with fewer names and the same leading lines."""
    if not (isinstance(statement, cst.SimpleStatementLine)
            and all(isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body)):
        return False
    if candidate.deep_equals(statement):
        return False
    if not (isinstance(candidate, cst.SimpleStatementLine)
            and len(candidate.body) == len(statement.body)
            and len(candidate.leading_lines) == len(statement.leading_lines)
            and all(a.deep_equals(b) for a, b in zip(candidate.leading_lines,
                                                     statement.leading_lines, strict=True))):
        return True
    for old, new in zip(statement.body, candidate.body, strict=True):
        if isinstance(old, cst.ImportFrom) and isinstance(new, cst.ImportFrom):
            if (old.module is None) != (new.module is None) or len(new.relative) != len(
                    old.relative) or (old.module is not None and new.module is not None
                                      and not new.module.deep_equals(old.module)):
                return True
        elif isinstance(old, cst.Import) and isinstance(new, cst.Import):
            if not {alias.evaluated_name for alias in new.names} <= {
                    alias.evaluated_name for alias in old.names}:
                return True
        else:
            return True
    return False


def _same_kind_node(target: Any, node: cst.CSTNode) -> bool:
    kinds = _KINDS.get(type(target).__name__)
    return kinds is None or isinstance(node, kinds)


def _apply(primitive: Edit, node: Any) -> Any:
    if isinstance(primitive, ReplaceNode):
        return _replacement(primitive.code, node)
    if not isinstance(node, cst.Call):
        raise EditError(f"{type(primitive).__name__} needs a call, found {type(node).__name__}")
    if isinstance(primitive, AddKeyword):
        return append_argument(node, keyword(primitive.name,
                                             cst.parse_expression(primitive.value)))
    if isinstance(primitive, RemoveKeyword):
        return _without_keyword(node, primitive.name)
    if isinstance(primitive, RenameKeyword):
        args = []
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == primitive.name:
                arg = arg.with_changes(keyword=cst.Name(primitive.new_name))
                if primitive.value is not None:
                    arg = arg.with_changes(value=cst.parse_expression(primitive.value))
            args.append(arg)
        return node.with_changes(args=args)
    raise EditError(f"unknown edit {primitive!r}")


def _replacement(code: str, node: cst.CSTNode) -> cst.CSTNode:
    if isinstance(node, cst.BaseExpression):
        new = _parse_expression(code)
        # Keep the parentheses written around the old expression.
        if node.lpar and not new.lpar:  # type: ignore[attr-defined]
            new = new.with_changes(lpar=node.lpar, rpar=node.rpar)  # type: ignore[attr-defined]
        return new
    if isinstance(node, (cst.BaseSmallStatement, cst.SimpleStatementLine)):
        statement = cst.parse_statement(code)
        if isinstance(node, cst.SimpleStatementLine) and isinstance(
                statement, cst.SimpleStatementLine):
            return statement.with_changes(leading_lines=node.leading_lines)
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            return statement.body[0]
        raise EditError("a small statement can only be replaced by one small statement")
    return cst.parse_statement(code)


def _parse_expression(code: str) -> cst.BaseExpression:
    """`code` as an expression. Code over several lines that is only valid inside
    brackets (`a\n    .mean().detach()`, taken from inside the parentheses around it)
    is parsed inside a pair of its own, which is then dropped: the brackets around the
    place it goes hold it, as they held the code it replaces."""
    try:
        return cst.parse_expression(code)
    except cst.ParserSyntaxError:
        if "\n" not in code:
            raise
    wrapped = cst.parse_expression(f"({code})")
    return wrapped.with_changes(lpar=wrapped.lpar[1:], rpar=wrapped.rpar[:-1])


def _without_keyword(call: cst.Call, name: str) -> cst.Call:
    args = list(call.args)
    for index, arg in enumerate(args):
        if arg.keyword is not None and arg.keyword.value == name:
            del args[index]
            if args and index == len(args):
                # The removed argument was the last: the new last one takes its comma (a
                # trailing comma or none) and what came before ")".
                previous = args[-1]
                args[-1] = previous.with_changes(comma=arg.comma,
                                                 whitespace_after_arg=arg.whitespace_after_arg)
            return call.with_changes(args=args)
    raise EditError(f"the call has no keyword {name}")


def editor_class(codemod: type[Codemod]) -> type[Editor]:
    if codemod.editor is None:
        return PrimitiveEditor
    module, _, attribute = codemod.editor.partition(":")
    # ".x_edit:Editor" is relative to the codemod's own package.
    package = codemod.__module__.rpartition(".")[0]
    found = getattr(importlib.import_module(module, package=package or None), attribute)
    if not (isinstance(found, type) and issubclass(found, Editor)):
        raise TypeError(f"{codemod.editor} is not a torchfix editor")
    return found


def make_changes(
    codemod: type[Codemod],
    module: cst.Module,
    findings: Sequence[Finding],
    file: FileContext,
    settings: TransformerSettings,
) -> cst.Module:
    """`module` (libcst's tree of `file.text`) with the changes of `findings` made.

    Raises EditError when a finding's change could not be made.
    """
    cls = editor_class(codemod)
    editor = cls(CodemodContext(filename=str(file.path)), settings,
                 EditSettings(file, findings, settings.options))
    new_module = editor.transform_module(module)
    missing = [f for f in findings if id(f) not in editor.made]
    if missing:
        first = missing[0]
        raise EditError(f"could not make the change it decided at line "
                        f"{getattr(first.node, 'lineno', '?')} ({first.message})")
    return new_module


def focus_on(findings: Sequence[Finding], spans: Mapping[cst.CSTNode, tuple[int, int]] | None
             ) -> Focus | None:
    """Visit only the statements holding the findings (and their edits' targets)."""
    if spans is None:
        return None
    lines: set[int] = set()
    for finding in findings:
        for node in [finding.node, *(getattr(e, "target", None) for e in finding.edits)]:
            if node is not None and hasattr(node, "lineno"):
                lines.update(range(node.lineno, (getattr(node, "end_lineno", None)
                                                 or node.lineno) + 1))
    return Focus(spans, tuple(sorted(lines)))
