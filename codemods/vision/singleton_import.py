"""torchvision-singleton-import: `import torchvision.models as models` (TorchFix TOR203)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from torchfix.model.ast_index import nodes_of
from torchfix.rewrite.contract import Codemod, FileContext, Finding, ReplaceNode, Safety, Span
from torchfix.rewrite.import_order import (
    SortKey,
    classify_import,
    import_key,
    member_key,
    section_of,
)

MODULES = ("datasets", "models", "transforms")


@dataclass(frozen=True)
class Move:
    """Where the new `from torchvision import x` goes in an import block that is sorted
    the way isort (ruff's `I001`) sorts it: before or after the statement at `anchor`;
    or, with `merged`, into the `from torchvision import ...` statement at `anchor`, which
    becomes `merged`. `heir`: the statement after the old one, which takes the blank
    lines and comments above it when the old one goes (None: it has none to give)."""

    statement: str
    anchor: Span
    after: bool
    heir: Span | None
    merged: str | None = None
    # The statements the editor changes beside the old one, with their new text (their
    # own, but for a merge): as replacements, they are the lines it visits.
    targets: tuple[tuple[ast.stmt, str], ...] = ()


class TorchvisionSingletonImport(Codemod):
    """Write `from torchvision import models` for `import torchvision.models as models`.

    ## What it does
    `import torchvision.models as models` (and the same for `datasets` and `transforms`)
    becomes `from torchvision import models`.

    ## Why
    Both bind the same module to the same name; the `from` form is the one torchvision's
    documentation uses and says so in fewer words. A style rule, kept for TorchFix users and
off by default: select it by name or as TOR203.

    ## Example
    ```python
    import torchvision.transforms as transforms
    ```
    becomes
    ```python
    from torchvision import transforms
    ```

    ## Fix safety
    **Safe**: the name is bound to the very same module object. An `import` statement that
    imports other modules as well is reported, not split. TorchFix code: TOR203.

    Where the import block holding the statement is sorted the way isort (ruff's
    `I001`) sorts it, at the project's settings (`force-sort-within-sections`,
    `force-single-line`, `known-first-party`, ...), the new `from` import goes where the
    sorter would put it: after the plain imports of its section by default, and into an
    existing `from torchvision import ...` statement (`from torchvision import
    datasets, transforms`) unless `force-single-line` is set. A block that is not sorted
    keeps the new import in the old one's place, as does a block holding more than one
    such import.
    """

    name = "torchvision-singleton-import"
    summary = "Write `from torchvision import models` for `import torchvision.models as models`."
    triggers = (b"import torchvision.",)
    fix_safety = "safe"
    codes = ("TOR203",)
    family = "vision"
    editor = ".singleton_import_edit:SingletonImportEditor"
    # Off by default: pure style, and every fresh review (rounds 6, 7, 9) counted it as
    # noise a maintainer rejects; select it by name or TOR203 for TorchFix's behaviour.
    enabled_by_default = False

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {node.lineno for node in nodes_of(tree, ast.Import) if _singletons(node)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        for node in nodes_of(file.tree, ast.Import):
            for module in _singletons(node):
                message = (f"import torchvision.{module} as {module} is `from torchvision "
                           f"import {module}`")
                if len(node.names) == 1:
                    statement = f"from torchvision import {module}"
                    move = _move(file, node, module)
                    edits: tuple[ReplaceNode, ...] = (ReplaceNode(node, statement),)
                    if move is not None:
                        # The anchor (and the heir) are edited by the editor: they are
                        # named here so that it visits them (a merge is the change itself).
                        edits = tuple(
                            ReplaceNode(target, text) for target, text in move.targets)
                    yield Finding(node, message, Safety.SAFE, edits, data=move)
                else:
                    yield Finding(node, f"{message} (in a statement importing more: split it "
                                  "by hand)", Safety.MANUAL)


def _singletons(node: ast.Import) -> list[str]:
    return [alias.asname for alias in node.names
            if alias.asname in MODULES and alias.name == f"torchvision.{alias.asname}"]


def _block(file: FileContext, node: ast.Import) -> list[ast.stmt] | None:
    """The run of import statements `node` is part of (in its module or block body)."""
    parent = file.semantic.parent(node)
    for field in ("body", "orelse", "finalbody"):
        body = getattr(parent, field, None)
        if isinstance(body, list) and any(statement is node for statement in body):
            break
    else:
        return None
    index = next(i for i, statement in enumerate(body) if statement is node)
    start = end = index
    while start > 0 and isinstance(body[start - 1], (ast.Import, ast.ImportFrom)):
        start -= 1
    while end + 1 < len(body) and isinstance(body[end + 1], (ast.Import, ast.ImportFrom)):
        end += 1
    return body[start:end + 1]


def _move(file: FileContext, node: ast.Import, module: str) -> Move | None:
    """Where isort would put `from torchvision import <module>`, if the block is sorted
    and the place is another than the old statement's; None: replace it in place."""
    block = _block(file, node)
    if block is None or len(block) < 2 or any(
            isinstance(statement, ast.Import) and _singletons(statement)
            for statement in block if statement is not node):
        return None  # alone, or the others would move too: keep the places as they are
    if any(statement.lineno == other.end_lineno for statement, other in zip(
            block[1:], block, strict=False)):
        return None  # `import a; import b` on one line
    lines = file.lines[block[0].lineno - 1:block[-1].end_lineno]  # type: ignore[misc]
    if any("#" in line for line in lines):
        return None  # comments belong to the statements around them: nothing moves
    settings = file.project.import_settings()
    keys = [classify_import(file, settings, statement) for statement in block]
    if keys != sorted(keys):
        return None  # the project does not sort its imports (here at least)
    statement = f"from torchvision import {module}"
    new: tuple[int, SortKey] = (section_of(file, settings, "torchvision", 0),
                                import_key(settings, "torchvision", 1))
    others = [(statement_, key) for statement_, key in zip(block, keys, strict=True)
              if statement_ is not node]
    position = block.index(node)
    following = block[position + 1] if position + 1 < len(block) else None
    heir = file.span(following) if following is not None else None
    kept = ((following, file.source(following)),) if following is not None else ()
    if not settings.force_single_line:
        for other, key in others:
            if (isinstance(other, ast.ImportFrom) and other.module == "torchvision"
                    and not other.level and key[0] == new[0]):
                merged = _merged(file, other, module)
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


def _merged(file: FileContext, statement: ast.ImportFrom, module: str) -> str | None:
    """`from torchvision import <names and module>`, with the names in isort's order;
    None where the statement is laid out over lines, aliases a name or has it already."""
    if statement.lineno != statement.end_lineno or any(
            alias.asname is not None or alias.name in (module, "*")
            for alias in statement.names):
        return None
    names = sorted([alias.name for alias in statement.names] + [module], key=member_key)
    return f"from torchvision import {', '.join(names)}"
