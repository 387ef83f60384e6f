"""torchvision-to-tensor's editor: the shared primitives, and the second step put into a
`Compose` list beside the first where `ToTensor()` was an element of it."""

from __future__ import annotations

from typing import Any

import libcst as cst

from torchfix.rewrite.contract import Span
from torchfix.rewrite.editing import EditError, PrimitiveEditor

from .to_tensor import Splice


class ToTensorEditor(PrimitiveEditor):
    """`Compose([Resize(224), ToTensor()])` → `Compose([Resize(224), ToImage(),
    ToDtype(torch.float32, scale=True)])`: the call becomes `ToImage()` (a primitive),
    and the list gets `ToDtype(...)` after it, on a line of its own where the list puts
    each element on one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._splices: dict[Span, Splice] = {
            self.file.span(finding.node): finding.data for finding in self.edit.findings
            if isinstance(finding.data, Splice)}

    def leave_List(self, original_node: cst.List, updated_node: cst.List) -> Any:
        return self._spliced(original_node, updated_node)

    def leave_Tuple(self, original_node: cst.Tuple, updated_node: cst.Tuple) -> Any:
        return self._spliced(original_node, updated_node)

    def _spliced(self, original: cst.List | cst.Tuple, updated: Any) -> Any:
        if not self._splices:
            return updated
        elements = list(updated.elements)
        found = [(index, self._splices.pop(self.span_of(element.value)))
                 for index, element in enumerate(original.elements)
                 if self.span_of(element.value) in self._splices]
        if not found:
            return updated
        separator = next((element.comma for element in original.elements[:-1]
                          if isinstance(element.comma, cst.Comma)),
                         cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        for index, splice in reversed(found):
            element = elements[index]
            step = cst.Element(value=cst.parse_expression(splice.after), comma=element.comma)
            elements[index:index + 1] = [element.with_changes(comma=separator), step]
        return updated.with_changes(elements=elements)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> Any:
        if self._splices:
            raise EditError("could not put ToDtype into the Compose list beside ToImage")
        return updated_node
