"""Where new imports go so that the project's import sorter (ruff's `I001`, or isort)
stays content.

A codemod that adds an import decides its place in `check()`, on CPython's tree: in its
section of the file's first import block (future, standard library, third party, first
party, local), in sorted order; a section the block lacks becomes a new group in its
place, set off by one blank line. The order is ruff's: by default plain `import x`
before `from x import y`, then by module name (case-insensitively, numbers in natural
order); with isort's `from_first` (ruff's `from-first`) from-imports first; with
`force-sort-within-sections` (ruff or isort, or an isort profile that sets
it: `google`, `open_stack`, `plone`) both kinds sorted together by module name; with
`length-sort` (or `length-sort-straight`, plain imports only) by the module name's
length first. The
settings come from `Project.import_settings()`. The result is a list of
`ImportInsertion`s, placed by `torchfix.rewrite.edits.insert_imports` on libcst's tree.

First party is what ruff's isort calls first party by default: the file's own top-level
package, and the modules and packages in the project root or its `src/` folder, plus
the configured `known-first-party` (and less `known-third-party`).

No libcst here: `check` never needs it.
"""

from __future__ import annotations

import ast
import itertools
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from torchfix.model.import_settings import ImportSettings
from torchfix.rewrite.contract import FileContext

# isort's sections, in order.
FUTURE, STDLIB, THIRD_PARTY, FIRST_PARTY, LOCAL = range(5)
STDLIB_MODULES = frozenset(sys.stdlib_module_names)
_DIGITS = re.compile(r"(\d+)")

SortKey = tuple[object, ...]


@dataclass(frozen=True)
class NewImport:
    """An import statement to add: `import module`, or `from module import name`; with a
    `level`, the relative `from .module import name` (`..` for level 2, ...)."""

    module: str
    name: str | None = None
    level: int = 0  # relative to the importing module's package: needs a name

    @property
    def statement(self) -> str:
        if self.name is None:
            return f"import {self.module}"
        return f"from {'.' * self.level}{self.module} import {self.name}"

    def key(self, settings: ImportSettings) -> SortKey:
        return _key(settings, self.module, 0 if self.name is None else 1, self.level,
                    (self.name or "").split(",")[0].split(" as ")[0].strip())


@dataclass(frozen=True)
class ImportInsertion:
    """Import statements to add beside top-level statement `index` of CPython's tree.

    `after`: after that statement, else before it (taking the blank lines and comments
    above it, which belong to the import group it starts). `new_group`: the statements
    start a group of their own, set off from the neighbouring imports by a blank line.
    """

    index: int
    after: bool
    statements: tuple[str, ...]
    new_group: bool


def plan_imports(file: FileContext, imports: Sequence[NewImport]
                 ) -> tuple[ImportInsertion, ...]:
    """Where each of `imports` goes in `file` for isort to be content."""
    if not imports:
        return ()
    body = file.tree.body
    start = 1 if body and is_docstring(body[0]) else 0
    first = next((i for i in range(start, len(body))
                  if isinstance(body[i], (ast.Import, ast.ImportFrom))), None)
    settings = file.project.import_settings()
    ordered = sorted(imports, key=lambda new: new.key(settings))
    if first is None:  # no import at module level: a group of their own at the top
        statements = tuple(new.statement for new in ordered)
        if start < len(body):
            return (ImportInsertion(start, False, statements, True),)
        return (ImportInsertion(max(start - 1, 0), True, statements, True),)
    block: list[Existing] = []
    index = first
    while index < len(body) and isinstance(body[index], (ast.Import, ast.ImportFrom)):
        statement = body[index]
        block.append(Existing(index, *_classify(file, settings, statement),  # type: ignore[arg-type]
                              int(isinstance(statement, ast.ImportFrom))))
        index += 1
    places: dict[tuple[int, bool, bool], list[str]] = {}
    for new in ordered:
        section = _section(file, settings, new.module, new.level)
        kind = 0 if new.name is None else 1
        kinds = _kind_order(block, settings, section)
        places.setdefault(_place(block, section, new.key(settings), kind, kinds,
                                 settings.force_sort_within_sections),
                          []).append(new.statement)
    return tuple(ImportInsertion(index, after, tuple(statements), new_group)
                 for (index, after, new_group), statements in sorted(places.items()))


def is_docstring(statement: ast.stmt) -> bool:
    return (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str))


class Existing(NamedTuple):
    """An import statement of the file's first import block."""

    statement: int  # its index among the module's top-level statements
    section: int
    key: SortKey
    kind: int  # 0: `import x`, 1: `from x import y`


# How a file orders the two kinds of import statements within a section.
PLAIN_FIRST, FROM_FIRST, MIXED = "plain-first", "from-first", "mixed"


def _kind_order(block: Sequence[Existing], settings: ImportSettings,
                section: int) -> str | None:
    """How the file orders plain and from-imports in `section`: plain ones first (ruff's
    and isort's default), from-imports first (isort's `from_first`, or a file sorted by
    hand so: catalyst's `from typing import ...` above `import collections`), or the
    two sorted together by module name (`force-sort-within-sections`, set or not).
    Read off the section itself where it holds both kinds in one of those orders, else
    off the file's other sections where they agree; None where nothing says (one kind
    only, or no order: the settings decide)."""
    if settings.force_sort_within_sections:
        return MIXED
    if settings.from_first:
        return FROM_FIRST
    orders: dict[int, str] = {}
    for found in sorted({existing.section for existing in block}):
        order = _section_order([e for e in block if e.section == found])
        if order is not None:
            orders[found] = order
    if section in orders:
        return orders[section]
    seen = set(orders.values())
    return seen.pop() if len(seen) == 1 else None


def _section_order(statements: Sequence[Existing]) -> str | None:
    """The order of kinds one section's statements show (see `_kind_order`)."""
    kinds = [statement.kind for statement in statements]
    changes = sum(1 for a, b in itertools.pairwise(kinds) if a != b)
    if not changes:
        return None
    by_name = all(_mixed(a.key, False) <= _mixed(b.key, False)
                  for a, b in itertools.pairwise(statements))
    if changes == 1:
        if kinds[0] == 0:
            return PLAIN_FIRST  # the default's order (sorted by name too or not)
        return MIXED if by_name else FROM_FIRST
    return MIXED if by_name else None  # interleaved: sorted by name, or not sorted


def _mixed(key: SortKey, force_sorted: bool) -> SortKey:
    """A sort key of `_key` as force-sort-within-sections has it: the kind last."""
    return key if force_sorted else (*key[1:-1], key[0], key[-1])


def _place(block: Sequence[Existing], section: int, key: SortKey, kind: int,
           kinds: str | None = None, force_sorted: bool = False) -> tuple[int, bool, bool]:
    """(statement index, after it, new group) for one import of `kind` (0 plain, 1
    from), in the file's own order: among the section's statements of its kind, after
    the last one that sorts before it (the file's order of those, whatever the
    settings say of the other kind); between those, among statements of the other
    kind, as the file orders the kinds (`_kind_order`), by `key` where it mixes them."""
    same = [existing for existing in block if existing.section == section]
    if not same:
        later = [existing.statement for existing in block if existing.section > section]
        if later:
            return later[0], False, True
        return block[-1].statement, True, True
    kin = [position for position, existing in enumerate(same) if existing.kind == kind]
    if kin:
        upper = next((p for p in kin if same[p].key > key), len(same))
        lower = max((p for p in kin if p < upper), default=-1)
        between = range(lower + 1, upper)  # statements of the other kind only
        if not between:
            position = upper
        elif kinds == MIXED:  # by module name, then kind: force-sort-within-sections'
            position = next((p for p in between if _mixed(same[p].key, force_sorted)
                             > _mixed(key, force_sorted)), upper)
        elif kinds is None:
            position = next((p for p in between if same[p].key > key), upper)
        else:  # the kind the file puts first goes before the other kind's statements
            first = 0 if kinds == PLAIN_FIRST else 1
            position = between.start if kind == first else upper
    else:
        position = next((p for p, existing in enumerate(same) if existing.key > key),
                        len(same))
        if kinds in (PLAIN_FIRST, FROM_FIRST):  # the first of its kind: where they go
            first = 0 if kinds == PLAIN_FIRST else 1
            position = 0 if kind == first else len(same)
    if position:
        return same[position - 1].statement, True, False
    return same[0].statement, False, False


def _key(settings: ImportSettings, module: str, kind: int, level: int = 0,
         member: str = "") -> SortKey:
    """ruff's order of import statements in a section: `kind` 0 for `import x`, 1 for
    `from x import y`; module names case-insensitively, in natural order (`m2` < `m10`).
    By default plain imports come first; with force-sort-within-sections the kinds mix
    (`import os` < `from os import path` < `import os.path`). With `length-sort` (or
`length-sort-straight`, for plain imports) the length of the module name comes first.
    Relative imports (`level` dots) go furthest first, `from .. import` before `from .
    import`: ruff's `relative-imports-order` and isort's `reverse_relative` defaults.
    Two `from` imports of one module (ruff keeps `from m import a as b` apart) go by
    their first names (`member`), in `member_key`'s order."""
    name: tuple[object, ...] = (-level, _natural(module.lower()), module)
    if settings.length_sort or (settings.length_sort_straight and kind == 0):
        # ruff's length-sort: shorter module names first, the dots counted
        name = (len(module) + level, *name)
    elif settings.length_sort_straight:
        name = (-1, *name)  # as in ruff, a from-import without a length sorts first
    last = member_key(member) if member else (-1, "", "")
    if settings.force_sort_within_sections:
        return (*name, kind, last)
    return (1 - kind if settings.from_first else kind, *name, last)


def _natural(text: str) -> tuple[object, ...]:
    """`text` split into text and numbers, which compare as numbers: `m10` after `m2`."""
    return tuple(int(part) if index % 2 else part
                 for index, part in enumerate(_DIGITS.split(text)))


def _classify(file: FileContext, settings: ImportSettings,
              statement: ast.Import | ast.ImportFrom) -> tuple[int, SortKey]:
    """(section, sort key) of an import statement of the file."""
    if isinstance(statement, ast.ImportFrom):
        module = statement.module or ""
        return (_section(file, settings, module, statement.level),
                _key(settings, module, 1, statement.level, statement.names[0].name))
    module = statement.names[0].name
    return _section(file, settings, module, 0), _key(settings, module, 0)


def _section(file: FileContext, settings: ImportSettings, module: str, level: int) -> int:
    top = module.split(".")[0]
    if level:
        return LOCAL
    if top == "__future__":
        return FUTURE
    if _known(module, settings.known_first_party):
        return FIRST_PARTY
    if _known(module, settings.known_third_party):
        return THIRD_PARTY
    standard = settings.known_standard_library
    if (top in STDLIB_MODULES if standard is None else _known(module, standard)) or \
            _known(module, settings.extra_standard_library):
        return STDLIB
    if _is_first_party(file, top):
        return FIRST_PARTY
    return {"first-party": FIRST_PARTY,
            "standard-library": STDLIB}.get(settings.default_section, THIRD_PARTY)


def _known(module: str, names: Sequence[str]) -> bool:
    """Whether a `known-...` list names the module or a package holding it."""
    return any(module == name or module.startswith(name + ".") for name in names)


def _is_first_party(file: FileContext, top: str) -> bool:
    own = file.module.name
    if own.split(".")[0] == top and ("." in own or file.module.is_package):
        return True
    for folder in (file.project.root, file.project.root / "src"):
        if (folder / top).is_dir() or (folder / f"{top}.py").is_file():
            return True
    return False


def member_key(name: str) -> tuple[int, str, str]:
    """The order of the names of one `from` import: isort's `order-by-type`, CONSTANTS,
    then Classes, then the rest."""
    kind = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    return kind, name.lower(), name


# Public names for codemods that reorder existing imports (torchvision-singleton-import):
# the section and sort key of a statement of the file, of a module, of a new import.
classify_import = _classify
section_of = _section
import_key = _key
