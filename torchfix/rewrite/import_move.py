"""Where a rewritten import statement goes in an import block that isort (ruff's `I001`)
keeps sorted: a codemod that renames a statement's module (`import torchvision.models as
models` -> `from torchvision import models`, `from torch.distributed._tensor import X` ->
`from torch.distributed.tensor import X`) asks `sorted_move` whether the new statement
sorts somewhere else than the old one stood, and hands the `Move` to `ImportMoveEditor`
(`import_move_edit.py`), which makes it. Decided on CPython's tree: `check` needs no
libcst."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from torchfix.rewrite.contract import FileContext, ReplaceNode, Span
from torchfix.rewrite.import_order import (
    SortKey,
    classify_import,
    import_key,
    member_key,
    section_of,
)


@dataclass(frozen=True)
class Move:
    """Where the new statement goes in an import block that is sorted the way isort
    sorts it: before or after the statement at `anchor`; or, with `merged`, into the
    `from` statement of the same module at `anchor`, which becomes `merged`. `heir`: the
    statement after the old one, which takes the blank lines and comments above it when
    the old one goes (None: it has none to give)."""

    statement: str
    anchor: Span
    after: bool
    heir: Span | None
    merged: str | None = None
    # The statements the editor changes beside the old one, with their new text (their
    # own, but for a merge): as replacements, they are the lines it visits.
    targets: tuple[tuple[ast.stmt, str], ...] = ()

    def edits(self) -> tuple[ReplaceNode, ...]:
        """The finding's edits: the anchor (and the heir) are edited by the editor; they
        are named so that it visits them (a merge is the change itself)."""
        return tuple(ReplaceNode(target, text) for target, text in self.targets)


def import_block(file: FileContext, node: ast.stmt) -> list[ast.stmt] | None:
    """The run of import statements `node` is part of (in its module or block body)."""
    found = file.semantic.block_of(node)
    if found is None:
        return None
    body, index = found
    start = end = index
    while start > 0 and isinstance(body[start - 1], (ast.Import, ast.ImportFrom)):
        start -= 1
    while end + 1 < len(body) and isinstance(body[end + 1], (ast.Import, ast.ImportFrom)):
        end += 1
    return body[start:end + 1]


def sorted_move(file: FileContext, node: ast.Import | ast.ImportFrom, statement: str,
                module: str, names: tuple[str, ...], *, stays: frozenset[int] = frozenset()
                ) -> Move | None:
    """Where isort would put `statement`, the new `from module import names` that
    replaces `node`, if the block is sorted and the place is another than the old
    statement's; None: replace it in place. `stays`: the ids of statements of the block
    that are rewritten in place too (the places would all shift: nothing moves)."""
    block = import_block(file, node)
    if block is None or len(block) < 2 or any(id(s) in stays for s in block if s is not node):
        return None  # alone, or the others change too: keep the places as they are
    if any(statement_.lineno == other.end_lineno for statement_, other in zip(
            block[1:], block, strict=False)):
        return None  # `import a; import b` on one line
    lines = file.lines[block[0].lineno - 1:block[-1].end_lineno]  # type: ignore[misc]
    if any("#" in line for line in lines):
        return None  # comments belong to the statements around them: nothing moves
    settings = file.project.import_settings()
    keys = [classify_import(file, settings, statement_) for statement_ in block]
    if keys != sorted(keys):
        return None  # the project does not sort its imports (here at least)
    first = min(names, key=member_key)
    new: tuple[int, SortKey] = (section_of(file, settings, module, 0),
                                import_key(settings, module, 1, 0, first))
    others = [(statement_, key) for statement_, key in zip(block, keys, strict=True)
              if statement_ is not node]
    position = block.index(node)
    following = block[position + 1] if position + 1 < len(block) else None
    heir = file.span(following) if following is not None else None
    kept = ((following, file.source(following)),) if following is not None else ()
    if not settings.force_single_line and "\n" not in statement and " as " not in statement:
        for other, key in others:
            if (isinstance(other, ast.ImportFrom) and other.module == module
                    and not other.level and key[0] == new[0]):
                merged = _merged(other, module, names)
                if merged is None:
                    return None
                targets = ((other, merged),
                           *(pair for pair in kept if pair[0] is not other))
                return Move(statement, file.span(other), False, heir, merged, targets)
    section = [(other, key) for other, key in others if key[0] == new[0]]
    if not section:
        return None  # a group of its own: keep it where it is
    later = [other for other, key in section if key > new]
    if later:
        anchor, after = later[0], False
    else:
        anchor, after = section[-1][0], True
    anchor_position = block.index(anchor)
    if (anchor_position == position + 1 and not after) or (
            anchor_position == position - 1 and after):
        return None  # its place already
    targets = ((anchor, file.source(anchor)), *(pair for pair in kept if pair[0] is not anchor))
    return Move(statement, file.span(anchor), after, heir, None, targets)


def _merged(statement: ast.ImportFrom, module: str, names: tuple[str, ...]) -> str | None:
    """`from module import <its names and names>`, in isort's order; None where the
    statement is laid out over lines, aliases a name or has one of them already."""
    if statement.lineno != statement.end_lineno or any(
            alias.asname is not None or alias.name in (*names, "*")
            for alias in statement.names):
        return None
    merged = sorted([alias.name for alias in statement.names] + list(names), key=member_key)
    return f"from {module} import {', '.join(merged)}"
