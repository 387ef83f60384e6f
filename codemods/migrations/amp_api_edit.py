"""amp-api's libcst side: make the changes `AmpApi.check()` decided, keeping the layout.

Each finding names its node and says what to do there (`codemods.migrations.amp_api`'s
edit classes); this module only knows how to write it: where the device goes in a call,
how a from-import is split, which comments a removed import line leaves behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.helpers import get_full_name_for_node

from torchfix.rewrite.contract import Finding
from torchfix.rewrite.editing import Editor, EditSettings
from torchfix.rewrite.edits import (
    append_argument,
    as_keyword,
    insert_argument,
    keyword,
    prepend_argument,
)
from torchfix.rewrite.transformer import TransformerSettings

from .amp_api import (
    AUTOCAST_POSITIONAL,
    CallEdit,
    DecoratorEdit,
    MoveImportedNames,
    RemoveImportLine,
    ReplaceImportedModule,
    ShortenEdit,
)

BlockT = TypeVar("BlockT", cst.Module, cst.IndentedBlock)


class AmpApiEditor(Editor):
    """Rewrites calls, decorators, names and imports where amp-api's findings say."""

    def __init__(self, context: CodemodContext, settings: TransformerSettings,
                 edit: EditSettings) -> None:
        super().__init__(context, settings, edit)
        self._quote = '"'
        self._added_lines: dict[cst.ImportFrom, cst.SimpleStatementLine] = {}
        self._orphaned_lines: list[cst.EmptyLine] = []  # from a removed import line
        self._orphan_depth = -1

    def _take(self, node: cst.CSTNode, kind: type) -> Finding | None:
        """The finding at `node` whose edit is of this kind, marked done."""
        for finding in self.findings_at(node):
            if isinstance(finding.data, kind):
                self.done(finding)
                return finding
        return None

    def visit_Module(self, node: cst.Module) -> None:
        self._quote = self.file.string_quote()

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> object:
        depth = len(self._statements)
        result = super().on_leave(original_node, updated_node)
        if (
            self._orphaned_lines
            and depth == self._orphan_depth
            and isinstance(result, (cst.SimpleStatementLine, cst.BaseCompoundStatement))
        ):
            # The statement after a removed import keeps the lines that were above it.
            lines, self._orphaned_lines = self._orphaned_lines, []
            result = result.with_changes(leading_lines=[*lines, *result.leading_lines])
        return result

    # -- names and calls -------------------------------------------------------------------

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        finding = self._take(original_node, CallEdit)
        if finding is None:
            return updated_node
        edit: CallEdit = finding.data
        replacement = updated_node
        if edit.device is not None:
            replacement = _with_device(replacement, edit.target, edit.device, self._quote)
        if edit.dtype is not None:
            replacement = append_argument(replacement, keyword("dtype", _dotted(edit.dtype)))
        if edit.shorten:
            replacement = replacement.with_changes(func=_shortened(replacement.func))
        return replacement

    def leave_Decorator(
        self, original_node: cst.Decorator, updated_node: cst.Decorator
    ) -> cst.Decorator:
        finding = self._take(original_node.decorator, DecoratorEdit)
        if finding is None:
            return updated_node
        edit: DecoratorEdit = finding.data
        name = updated_node.decorator
        if edit.shorten:
            name = _shortened(name)
        device = keyword("device_type", _string(edit.device, self._quote))
        return updated_node.with_changes(decorator=cst.Call(func=name, args=[device]))

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if self._take(original_node, ShortenEdit) is None:
            return updated_node
        return _shortened(updated_node)

    # -- imports ---------------------------------------------------------------------------

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        findings = [f for f in self.findings_at(original_node)
                    if isinstance(f.data, MoveImportedNames)]
        if not findings:
            return updated_node
        for finding in findings:
            self.done(finding)
        moving = {name for finding in findings for name in finding.data.names}
        assert not isinstance(updated_node.names, cst.ImportStar)
        moved, kept = _partition_names(updated_node, moving)
        if not kept:
            return updated_node.with_changes(module=_new_module(updated_node.module))
        new_import = updated_node.with_changes(
            module=_new_module(updated_node.module), names=_one_line(moved),
            lpar=None, rpar=None,
        )
        self._added_lines[original_node] = cst.SimpleStatementLine(body=[new_import])
        return _kept_import(updated_node, kept)

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        # Aliases are edited here, not one by one: libcst rejects an import whose last
        # name keeps a comma, as it would for a moment after the last alias is removed.
        names: list[cst.ImportAlias] = []
        for original_alias, alias in zip(original_node.names, updated_node.names, strict=True):
            finding = self._take(original_alias, ReplaceImportedModule)
            if finding is None:
                names.append(alias)
            elif finding.data.module:
                names.append(alias.with_changes(name=_dotted(finding.data.module)))
        if len(names) == len(updated_node.names):
            return updated_node.with_changes(names=names)
        if isinstance(names[-1].comma, cst.Comma):
            names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(names=names)

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement] | cst.RemovalSentinel:
        first = original_node.body[0] if original_node.body else None
        if isinstance(first, cst.Import) and self._take(first, RemoveImportLine) is not None:
            # Blank lines and comments above the import stay, above the next statement.
            self._orphaned_lines = list(updated_node.leading_lines)
            self._orphan_depth = len(self._statements)
            return cst.RemovalSentinel.REMOVE
        added = self._added_lines.pop(first, None) if isinstance(first, cst.ImportFrom) else None
        if added is not None:
            return cst.FlattenSentinel([updated_node, added])
        return updated_node

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        return self._orphans_to_footer(updated_node)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        return self._orphans_to_footer(updated_node)

    def _orphans_to_footer(self, node: BlockT) -> BlockT:
        # The removed import was the last statement of this block: keep its comments.
        if self._orphaned_lines and self._orphan_depth == len(self._statements) + 1:
            lines, self._orphaned_lines = self._orphaned_lines, []
            comments = [line for line in lines if line.comment is not None]
            if comments:
                return node.with_changes(footer=[*comments, *node.footer])
        return node


# -- layout ---------------------------------------------------------------------------------


def _with_device(call: cst.Call, target: str, device: str, quote: str) -> cst.Call:
    """The call with the device the deprecated API implied, in the new API's position."""
    device_string = _string(device, quote)
    if target in ("custom_fwd", "custom_bwd"):
        # A keyword-only parameter: after the positional arguments, before the keywords.
        index = 0
        while index < len(call.args) and call.args[index].keyword is None and (
            call.args[index].star != "**"
        ):
            index += 1
        return insert_argument(call, index, keyword("device_type", device_string))
    if target == "autocast":
        args, position = [], 0
        for arg in call.args:
            if arg.keyword is None and not arg.star:
                arg = as_keyword(arg, AUTOCAST_POSITIONAL[position])
                position += 1
            args.append(arg)
        call = call.with_changes(args=args)
    return prepend_argument(call, cst.Arg(device_string))


def _string(text: str, quote: str) -> cst.SimpleString:
    return cst.SimpleString(f"{quote}{text}{quote}")


def _shortened(expression: cst.BaseExpression) -> cst.BaseExpression:
    """`torch.cuda.amp.X` → `torch.amp.X` (whatever torch is called here)."""
    assert isinstance(expression, cst.Attribute)
    module_part = expression.value
    assert isinstance(module_part, cst.Attribute) and isinstance(module_part.value, cst.Attribute)
    return expression.with_changes(value=module_part.with_changes(value=module_part.value.value))


def _new_module(module: cst.Attribute | cst.Name | None) -> cst.BaseExpression:
    """`torch.cuda.amp` → `torch.amp`; `torch.cuda` (as in `from torch.cuda import amp`)
    → `torch`."""
    assert isinstance(module, cst.Attribute)
    if module.attr.value in ("cuda", "cpu"):
        return module.value
    assert isinstance(module.value, cst.Attribute)
    return module.with_changes(value=module.value.value)


def _dotted(name: str) -> cst.Attribute | cst.Name:
    expression = cst.parse_expression(name)
    assert isinstance(expression, (cst.Attribute, cst.Name))
    return expression


def _partition_names(
    updated: cst.ImportFrom, moving: set[tuple[str, str | None]]
) -> tuple[list[cst.ImportAlias], list[cst.ImportAlias]]:
    """The aliases that move to torch.amp, and those that stay."""
    assert not isinstance(updated.names, cst.ImportStar)
    moved: list[cst.ImportAlias] = []
    kept: list[cst.ImportAlias] = []
    for alias in updated.names:
        key = (get_full_name_for_node(alias.name), alias.evaluated_alias)
        (moved if key in moving else kept).append(alias)
    return moved, kept


def _one_line(aliases: Sequence[cst.ImportAlias]) -> list[cst.ImportAlias]:
    """`a, b as c`: the aliases on one line, whatever their layout was."""
    separator = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    return [
        alias.with_changes(comma=separator if index < len(aliases) - 1
                           else cst.MaybeSentinel.DEFAULT)
        for index, alias in enumerate(aliases)
    ]


def _kept_import(updated: cst.ImportFrom, kept: Sequence[cst.ImportAlias]) -> cst.ImportFrom:
    """The import with only the names that stay; an exploded one keeps its layout."""
    assert not isinstance(updated.names, cst.ImportStar)
    if len(kept) > 1 and updated.lpar is not None:
        names = list(kept)
        names[-1] = names[-1].with_changes(comma=updated.names[-1].comma)
        return updated.with_changes(names=names)
    return updated.with_changes(names=_one_line(kept), lpar=None, rpar=None)
