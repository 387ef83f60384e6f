"""The deprecation engine: rows of the catalogue, found in one file, as findings.

A row names an old torch name and its replacement. The engine finds every way a file can
reach the old name, on CPython's tree and the semantic model:

- attribute chains through any alias (`torch.qr`, `th.qr`, `t = torch; t.qr`), called
  or used as values (`fn = torch.ger`, `map(torch.ger, ...)`);
- `from` imports (`from torch import ger [as g]`) and the names they bind;
- moved modules (`import torch.distributed._tensor as dt`, `from ... import DTensor`);
- Tensor methods (`x.storage()`), reported only.

Each use becomes one finding (code `use`), each import one (code `imported`), with the
fix the row allows: a rename everywhere, a call rewrite where the arguments allow it, or
a report with what to do. A replacement newer than the project's torch floor is reported,
never written. Fixes spell the new name the way the file reaches the old one
(`codemods.spelling`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

from torchfix.model.ast_index import nodes_of
from torchfix.model.semantic import Binding
from torchfix.model.test_code import is_test_path
from torchfix.model.version_guards import in_import_fallback, older_branch_ceiling
from torchfix.rewrite.contract import (
    AddKeyword,
    Codemod,
    Edit,
    FileContext,
    Finding,
    RemoveImport,
    RenameKeyword,
    ReplaceNode,
    Safety,
)
from torchfix.rewrite.import_move import Move, sorted_move

from ..prefilter import attributes_by_name, calls_by_name, from_package, guess
from ..spelling import Spelling, name_is_free, refer, without_module_import
from .catalogue import Entry

# Where a function held as a value is compared by identity rather than called: an
# element of a table (a list, tuple, set or dict of ops), or an operand of a comparison.
_TABLES = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.Compare)
VALUE_DETAIL = ("unsafe: held in a table, not called: the new name is another object, so "
                "a table or registry that holds the old one changes")
GUARDED_DETAIL = ("unsafe: this use runs only where torch has the feature (an "
                  "`is_available()` check), but the import the fix adds runs everywhere")
VERBS = {"removed": "was removed from torch", "deprecated": "is deprecated",
         "non-public": "is not public"}
# Names that are common words in other code (`x.norm()`, `range(n)`, `linalg.solve`):
# their triggers are `torch.<name>`, `import <name>` (the first name of a `from` import)
# and `torch as ` (`import torch as th`, for `th.norm(x)`: about 1% of the files that
# import torch), not `.norm`, which would parse every file that calls a tensor's
# `.norm()`. Only a file that reaches them through a plain assignment (`t = torch`) and
# holds no other trigger of the codemod is not looked at.
_COMMON_WORDS = frozenset({"qr", "ger", "norm", "range", "svd", "lu", "solve"})


@dataclass(frozen=True)
class Codes:
    """The TorchFix codes of a deprecated name's findings."""

    use: str  # a use of the old name ("TOR101")
    imported: str  # an import of it ("TOR103")


@dataclass(frozen=True)
class _Fix:
    """The edits of one fix, and how safe they are."""

    edits: tuple[Edit, ...]
    safety: Safety
    detail: str = ""  # why the fix is unsafe here, where the row does not say


class Table:
    """The rows one codemod acts on, indexed for the prefilter and the file's tree."""

    def __init__(self, entries: Sequence[Entry], codes: Codes) -> None:
        self.codes = codes
        self.symbols = {e.name: e for e in entries if e.fix != "module" and not e.method}
        self.modules = {e.name: e for e in entries if e.fix == "module"}
        self.methods = {e.last: e for e in entries if e.method}
        self.lasts = frozenset(e.last for e in self.symbols.values()) | frozenset(
            module.rsplit(".", 1)[-1] for module in self.modules)
        self.tops = frozenset(name.split(".")[0] for name in [*self.symbols, *self.modules])
        # Names a fix writes: a call whose arguments hold one is left to a second look.
        self._involved = frozenset(self.symbols) | frozenset(
            e.replacement for e in self.symbols.values() if e.replacement)

    # -- the prefilter -------------------------------------------------------------------

    def triggers(self) -> tuple[bytes, ...]:
        """Bytes one of which every file using a row contains (few of them: every file of
        a run is searched for each)."""
        found: set[bytes] = set()
        for entry in self.symbols.values():
            top, last = entry.name.split(".")[0], entry.last
            if entry.trigger:
                found.add(entry.trigger.encode())
            elif top != "torch":
                found.add(top.encode())  # every use imports the package by its name
            elif last in _COMMON_WORDS:
                found.update({b"torch." + last.encode(), b"import " + last.encode(),
                              b"torch as "})
            else:
                found.add(last.encode())
        for module, entry in self.modules.items():
            part = module.rsplit(".", 1)[-1]
            found.update({entry.trigger.encode()} if entry.trigger else {
                b"." + part.encode(), b"import " + part.encode()})
        found.update(b"." + name.encode() + b"()" for name in self.methods)
        # A trigger that holds another is never needed: the shorter one matches first.
        return tuple(sorted(t for t in found if not any(o != t and o in t for o in found)))

    def candidate_lines(self, tree: ast.Module) -> set[int]:
        lines: set[int] = set()
        lasts = self.lasts
        attributes = attributes_by_name(tree)
        for last in lasts:
            for node in attributes.get(last, ()):
                if self._may_be_old(tree, node):
                    lines.add(node.lineno)
        for node in nodes_of(tree, ast.ImportFrom):
            module = node.module or ""
            if module.split(".")[0] in self.tops and (
                    any(alias.name in lasts for alias in node.names) or self._module_row(module)):
                lines.add(node.lineno)
        for node in nodes_of(tree, ast.Import):
            if any(alias.name.split(".")[0] in self.tops and (
                    self._module_row(alias.name) or alias.name in self.tops)
                   for alias in node.names):
                lines.add(node.lineno)
        calls = calls_by_name(tree)
        for method in self.methods:
            lines.update(call.lineno for call in calls.get(method, ())
                         if isinstance(call.func, ast.Attribute))
        return lines

    def _may_be_old(self, tree: ast.Module, node: ast.Attribute) -> bool:
        """A first look, by the file's imports, before the semantic model is asked:
        `torch.linalg.solve` is not `torch.solve`, `x.norm()` not `torch.norm`."""
        if not from_package(tree, node, self.tops):
            return False
        named = guess(tree, node)
        return named is None or named in self.symbols or any(
            named == module or named.startswith(module + ".") for module in self.modules)

    def _module_row(self, module: str) -> Entry | None:
        for name, entry in self.modules.items():
            if module == name or module.startswith(name + "."):
                return entry
        return None

    # -- the decisions -------------------------------------------------------------------

    def check(self, file: FileContext) -> Iterator[Finding]:
        handled: set[int] = set()  # uses decided through their import
        for node in nodes_of(file.tree, ast.ImportFrom):
            yield from self._from_import(file, node, handled)
        for node in nodes_of(file.tree, ast.Import):
            yield from self._import(file, node, handled)
        attributes = attributes_by_name(file.tree)
        for node in sorted((node for last in self.lasts for node in attributes.get(last, ())),
                           key=lambda node: (node.lineno, node.col_offset)):
            if (id(node) not in handled and isinstance(node.ctx, ast.Load)
                    and self._may_be_old(file.tree, node)):
                yield from self._attribute(file, node)
        calls = calls_by_name(file.tree)
        for method in self.methods:
            for call in calls.get(method, ()):
                yield from self._method(file, call)

    def _safety(self, file: FileContext, entry: Entry, safety: Safety | None = None
                ) -> tuple[Safety, str]:
        """How safe a fix of the row is in this file (`safety`: the row's, or the one its
        call fixer found), and the detail a fix made unsafe here says: a replacement newer
        than torch 2.0 in a project that declares no torch version is unsafe."""
        safety = entry.safety if safety is None else safety
        undeclared = file.undeclared_floor(entry.since, entry.replacement or entry.name) \
            if entry.since is not None and safety is Safety.SAFE else None
        if undeclared:
            return Safety.UNSAFE, f"unsafe: {undeclared}"
        return safety, ""

    def _fallback(self, file: FileContext, entry: Entry, node: ast.AST) -> bool:
        """Whether `node` is code kept for a torch that has no replacement yet, left alone:
        it sits in the branch a torch version check keeps for it (`else:` of
        `if torch.__version__ >= "2.0":` for `torch.func`; round 11: torchrl's
        `functorch.vmap` fallback for torch < 2.0 rewritten to `torch.func.vmap`), or in a
        `try`/`except ImportError` fallback (round 13: verl's
        `except ImportError: from torch.distributed._tensor import DTensor` made the same
        as its `try:` body)."""
        ancestors = list(file.semantic.ancestors(node))
        if in_import_fallback(node, ancestors):
            return True
        if _mirrored_in_test(file, entry.name.rsplit(".", 1)[-1], node, ancestors):
            return True
        if entry.replacement and _replacement_missing_branch(file, entry.replacement, node,
                                                             ancestors):
            return True
        if entry.since is None:
            return False
        ceiling = older_branch_ceiling(file.tree, node, ancestors)
        return ceiling is not None and ceiling <= entry.since

    def _message(self, entry: Entry, detail: str = "") -> str:
        text = f"{entry.name} {VERBS[entry.status]}"
        if entry.replacement:
            text += f": use {entry.replacement}"
        if detail:
            text += f" ({detail})"
        elif entry.note and (entry.fix == "report" or entry.safety is Safety.UNSAFE):
            text += f"; {entry.note}"
        return text

    def _too_new(self, file: FileContext, entry: Entry) -> str | None:
        floor = file.min_torch()
        if entry.since is None:
            return None
        if floor is None:  # made for an older torch, where it declares none
            return file.era_predates(entry.since, entry.replacement or entry.name)
        if floor >= entry.since:
            return None
        return (f"{entry.replacement} needs torch >= {entry.since_text}, and the project "
                f"supports torch {floor[0]}.{floor[1]}")

    # -- attribute chains ----------------------------------------------------------------

    def _attribute(self, file: FileContext, node: ast.Attribute) -> Iterator[Finding]:
        model = file.semantic
        meaning = model.qualified_name(node)
        if meaning is None:
            return
        entry = self.symbols.get(meaning)
        if entry is not None:
            if not model.in_type_checking_block(node) and not self._fallback(
                    file, entry, node):
                yield from self._use(file, entry, node, lambda: self._spell_chain(
                    file, entry, node))
            return
        module = self.modules.get(meaning)
        if module is not None and not self._fallback(file, module, node):
            yield self._module_use(file, module, node)

    @staticmethod
    def _spell_chain(file: FileContext, entry: Entry, node: ast.Attribute) -> Spelling | None:
        """The replacement written where `node` (`functorch.vmap`) is; an `import functorch`
        the new spelling no longer goes through is dropped once nothing uses it."""
        spelled = refer(file, node, entry.replacement or "", via=node.value,
                        module_import=entry.imports)
        return spelled if spelled is None else without_module_import(file, node, spelled)

    def _module_use(self, file: FileContext, entry: Entry, node: ast.Attribute) -> Finding:
        """`torch.distributed._tensor.DTensor`: the module part moves."""
        parent = file.semantic.parent(node)
        member = parent.attr if isinstance(parent, ast.Attribute) and parent.value is node \
            else None
        problem = self._too_new(file, entry)
        if member is None or member not in entry.names:
            problem = problem or (f"{member} is not among the names {entry.replacement} has"
                                  if member else "the module itself is used")
        if problem:
            return Finding(node, self._message(entry, problem), Safety.MANUAL,
                           code=self.codes.use)
        spelled = refer(file, node, entry.replacement or "", via=node.value,
                        module_import=entry.imports)
        if spelled is None:
            return Finding(node, self._message(entry, "its name is taken here"), Safety.MANUAL,
                           code=self.codes.use)
        safety, detail = self._safety(file, entry)
        if spelled.imports and safety is Safety.SAFE and _availability_guarded(file, node):
            safety, detail = Safety.UNSAFE, GUARDED_DETAIL
        return Finding(node, self._message(entry, detail), safety,
                       (ReplaceNode(node, spelled.text), *spelled.imports), code=self.codes.use)

    # -- one use of an old name ------------------------------------------------------------

    def _use(self, file: FileContext, entry: Entry, node: ast.expr,
             spell: Callable[[], Spelling | None]) -> Iterator[Finding]:
        """A use (call or value) of the old name written as `node`."""
        if self._fallback(file, entry, node):
            return
        code = self.codes.use
        fix = self._fix(file, entry, node, spell)
        if isinstance(fix, str):
            yield Finding(node, self._message(entry, fix), Safety.MANUAL, code=code)
            return
        safety, detail = self._safety(file, entry, fix.safety)
        detail = detail or fix.detail
        yield Finding(node, self._message(entry, detail), safety, fix.edits, code=code)

    def _fix(self, file: FileContext, entry: Entry, node: ast.expr,
             spell: Callable[[], Spelling | None]) -> _Fix | str:
        """How to fix the use `node`, or why it is only reported ("": the row says)."""
        if entry.fix == "report":
            return ""
        problem = self._too_new(file, entry)
        if problem:
            return problem
        parent = file.semantic.parent(node)
        call = parent if isinstance(parent, ast.Call) and parent.func is node else None
        if call is None and entry.fix != "rename":
            return (f"used as a value, not called: {entry.replacement} takes other "
                    "arguments, so change it by hand")
        spelled = spell()
        if spelled is None:
            return f"a name {entry.replacement} needs is taken in this file"
        rename = (ReplaceNode(node, spelled.text),) if spelled.text != file.source(node) else ()
        if call is None and isinstance(parent, _TABLES):
            # Another object under the new name (`torch.ger` is no `torch.outer`): a table
            # of ops that holds the old one changes (lightning-thunder's registry of torch
            # ops, which lists `torch.outer` already: `import thunder` failed; round 22).
            # A value handed on to be called (`map(torch.ger, ...)`) is renamed as a call.
            return _Fix((*rename, *spelled.imports), Safety.UNSAFE, VALUE_DETAIL)
        if call is None or entry.fix == "rename":
            return _Fix((*rename, *spelled.imports), entry.safety)
        fixer = _CALL_FIXES[entry.fix]
        found = fixer(file, entry, call, spelled.text, self._involved)
        if isinstance(found, str):
            return found
        return _Fix((*rename, *found.edits, *spelled.imports), found.safety)

    # -- `from` imports ------------------------------------------------------------------

    def _from_import(self, file: FileContext, node: ast.ImportFrom, handled: set[int]
                     ) -> Iterator[Finding]:
        if node.level or not node.module or node.module.split(".")[0] not in self.tops:
            return
        module_entry = self._module_row(node.module)
        if module_entry is not None:
            if not self._fallback(file, module_entry, node):
                yield from self._from_moved_module(file, node, module_entry)
            return
        for alias in node.names:
            moved = self.modules.get(f"{node.module}.{alias.name}")
            if moved is not None:
                yield Finding(node, self._message(moved, "the module itself is imported"),
                              Safety.MANUAL, code=self.codes.imported)
        rows = [(alias, entry if entry is None or not self._fallback(file, entry, node)
                 else None)
                for alias in node.names
                for entry in [self.symbols.get(f"{node.module}.{alias.name}")]]
        if not any(entry for _, entry in rows):
            return
        model = file.semantic  # built only for files that import an old name
        if model.in_type_checking_block(node):
            return
        plans = []
        for alias, entry in rows:
            if entry is None:
                continue
            binding = _binding_of(file, alias)
            if binding is None or len(binding.scope.local(binding.name)) > 1:
                continue  # bound twice (a fallback for old torch): a choice made on purpose
            references = model.references(binding)
            handled.update(id(reference) for reference in references)
            plans.append((alias, entry, binding, references))
        if not plans:
            return
        private = [alias.name for alias, entry in rows if entry is None]
        if private and all(entry.status == "non-public" for _, entry, _, _ in plans):
            # phytorchx (round 56): `from torch.utils.data._utils.collate import
            # default_collate_fn_map, default_collate`; moving one name leaves the private
            # module imported for the other, so the change buys nothing
            kept = ", ".join(f"`{name}`" for name in private)
            for _alias, entry, _binding, _references in plans:
                yield Finding(node, self._message(entry, (
                    f"the same import brings {kept} from {node.module}, which has no public "
                    "name: the private module stays imported either way")),
                    Safety.MANUAL, code=self.codes.imported)
            return
        in_place = self._rewrite_in_place(file, node, rows, plans)
        if in_place is not None:
            yield from in_place
            return
        for alias, entry, _binding, references in plans:
            uses = [finding for reference in references
                    for finding in self._use(file, entry, reference, lambda r=reference, e=entry:
                                             refer(file, r, e.replacement or "",
                                                   module_import=e.imports))]
            yield from uses
            # The import goes once every use is fixed; the finding at it says so.
            kept = not uses or any(f.safety is Safety.MANUAL for f in uses)
            if kept:
                detail = self._too_new(file, entry) or (
                    "" if uses else "imported here and not used: import the replacement")
                yield Finding(node, self._message(entry, detail), Safety.MANUAL,
                              code=self.codes.imported)
            else:
                safety = Safety.UNSAFE if any(f.safety is Safety.UNSAFE for f in uses) \
                    else Safety.SAFE
                # the uses' reason, where it is the replacement's age (slowfast's import
                # of default_collate said nothing of torch 1.11, its uses did: round 36)
                detail = self._safety(file, entry)[1] if safety is Safety.UNSAFE else ""
                yield Finding(node, self._message(entry, detail), safety,
                              (RemoveImport(node.module, alias.name, alias.asname),),
                              code=self.codes.imported)

    def _rewrite_in_place(self, file: FileContext, node: ast.ImportFrom,
                          rows: list[tuple[ast.alias, Entry | None]],
                          plans: list[tuple[ast.alias, Entry, Binding, list[ast.Name]]]
                          ) -> list[Finding] | None:
        """`from functorch import vmap` → `from torch.func import vmap`, its uses kept (or
        renamed with the name: `ger(a, b)` → `outer(a, b)`). None when the statement holds
        other names, the names move to different modules, or a use cannot be fixed."""
        if len(plans) != len(rows):
            return None
        modules = {entry.replacement.rpartition(".")[0] for _, entry, _, _ in plans
                   if entry.replacement}
        if len(modules) != 1 or any(entry.fix == "report" or entry.replacement is None
                                    for _, entry, _, _ in plans):
            return None
        (new_module,) = modules
        exported = file.semantic.exported_names()
        findings: list[Finding] = []
        names: list[tuple[str, str | None]] = []
        safety = Safety.SAFE
        for alias, entry, _binding, references in plans:
            new_name = entry.replacement_last
            bound = alias.asname or alias.name
            if alias.asname is None and new_name != alias.name and (
                    bound in exported or not name_is_free(file, new_name, entry.replacement or "")):
                names.append((new_name, alias.name))  # keep the name others import
            else:
                names.append((new_name, alias.asname))
            spelled_name = alias.asname or names[-1][1] or new_name
            for reference in references:
                fix = self._fix(file, entry, reference, lambda s=spelled_name: Spelling(s))
                if isinstance(fix, str):
                    return None
                fix_safety, detail = self._safety(file, entry, fix.safety)
                if fix_safety is Safety.UNSAFE:
                    safety = Safety.UNSAFE
                findings.append(Finding(reference, self._message(entry, detail), fix_safety,
                                        fix.edits, code=self.codes.use))
            if self._too_new(file, entry):
                return None
            if self._safety(file, entry)[0] is Safety.UNSAFE:
                safety = Safety.UNSAFE
        text = import_from_text(new_module, names, file.source(node))
        first = plans[0][1]
        move = self._sorted_move(file, node, text, new_module, tuple(n for n, _ in names))
        # the uses' reason, where it is the replacement's age (slowfast's import of
        # default_collate said nothing of torch 1.11, its uses did: round 36)
        detail = self._safety(file, first)[1] if safety is Safety.UNSAFE else ""
        findings.append(Finding(node, self._message(first, detail), safety,
                                move.edits() if move else (ReplaceNode(node, text),),
                                code=self.codes.imported, data=move))
        if safety is Safety.UNSAFE:  # the import and its uses move together, or not at all
            findings = [Finding(f.node, f.message, Safety.UNSAFE, f.edits, code=f.code)
                        for f in findings]
        return findings

    def _from_moved_module(self, file: FileContext, node: ast.ImportFrom, entry: Entry
                           ) -> Iterator[Finding]:
        """`from torch.distributed._tensor import DTensor` → `... .tensor import DTensor`."""
        module = node.module or ""
        problem = self._too_new(file, entry)
        if module != entry.name:
            problem = problem or (f"the submodule {module} moved as well: import its names "
                                  f"from {entry.replacement}")
        else:
            unknown = [a.name for a in node.names if a.name not in entry.names]
            if unknown:
                problem = f"{', '.join(unknown)} not among the names {entry.replacement} has"
        if problem:
            yield Finding(node, self._message(entry, problem), Safety.MANUAL,
                          code=self.codes.imported)
            return
        text = import_from_text(entry.replacement or "",
                                [(a.name, a.asname) for a in node.names], file.source(node))
        safety, detail = self._safety(file, entry)
        move = self._sorted_move(file, node, text, entry.replacement or "",
                                 tuple(a.name for a in node.names))
        yield Finding(node, self._message(entry, detail), safety,
                      move.edits() if move else (ReplaceNode(node, text),),
                      code=self.codes.imported, data=move)

    def _sorted_move(self, file: FileContext, node: ast.ImportFrom, text: str, module: str,
                     names: tuple[str, ...]) -> Move | None:
        """Where the renamed statement goes in an import block isort keeps sorted
        (`torch.distributed._tensor` sorts before `torch.distributed.checkpoint`,
        `torch.distributed.tensor` after it); None: in place. Nothing moves where another
        statement of the block may be renamed too."""
        others = frozenset(
            id(other) for other in nodes_of(file.tree, ast.ImportFrom)
            if other is not node and other.module and not other.level
            and (self._module_row(other.module) is not None
                 or any(f"{other.module}.{a.name}" in self.symbols for a in other.names)))
        return sorted_move(file, node, text, module, names, stays=others)

    # -- plain imports ---------------------------------------------------------------------

    def _import(self, file: FileContext, node: ast.Import, handled: set[int]
                ) -> Iterator[Finding]:
        for alias in node.names:
            entry = self._module_row(alias.name)
            if entry is None or self._fallback(file, entry, node):
                continue
            problem = self._too_new(file, entry)
            if alias.name != entry.name:
                problem = problem or (f"the submodule {alias.name} moved as well: import its "
                                      f"names from {entry.replacement}")
            else:
                if alias.asname:  # `import torch.distributed._tensor as dt`: dt.DTensor
                    binding = _binding_of(file, alias)
                    uses = file.semantic.references(binding) if binding else []
                    handled.update(id(use) for use in uses)
                    members = [_member(file, use) for use in uses]
                else:  # `import torch.distributed._tensor`: torch.distributed._tensor.DTensor
                    members = [_member(file, use) for use in nodes_of(file.tree, ast.Attribute)
                               if use.attr == entry.last
                               and file.semantic.qualified_name(use) == entry.name]
                unknown = sorted({m or "the module itself" for m in members
                                  if m not in entry.names})
                if unknown:
                    problem = f"{', '.join(unknown)} not among the names it has"
            if problem:
                yield Finding(node, self._message(entry, problem), Safety.MANUAL,
                              code=self.codes.imported)
                continue
            new = (entry.replacement or "") + alias.name[len(entry.name):]
            parts = [new + (f" as {a.asname}" if a.asname else "") if a is alias
                     else a.name + (f" as {a.asname}" if a.asname else "") for a in node.names]
            safety, detail = self._safety(file, entry)
            yield Finding(node, self._message(entry, detail), safety,
                          (ReplaceNode(node, "import " + ", ".join(parts)),),
                          code=self.codes.imported)

    # -- Tensor methods ------------------------------------------------------------------

    def _method(self, file: FileContext, call: ast.Call) -> Iterator[Finding]:
        func = call.func
        if not isinstance(func, ast.Attribute) or call.args or call.keywords:
            return
        entry = self.methods.get(func.attr)
        if entry is None or (isinstance(func.value, ast.Name) and func.value.id == "self"):
            return  # `self.storage()`: a method of the class, most likely
        meaning = file.semantic.qualified_name(func.value)
        if meaning is not None and not meaning.startswith("torch."):
            return  # a module or class of some other library
        yield Finding(call, self._message(entry), Safety.MANUAL, code=self.codes.use)


# -- call rewrites ---------------------------------------------------------------------------

CallFix = Callable[[FileContext, Entry, ast.Call, str, frozenset[str]], "_Fix | str"]


def _replacement_missing_branch(file: FileContext, replacement: str, node: ast.AST,
                                ancestors: list[ast.AST]) -> bool:
    """Whether `node` runs only where the replacement is missing: the `else` of `if
    hasattr(torch, "arange"):` (or the body of `if not hasattr(...)`) for `torch.arange`.
    torchnet's tests (round 30) keep `torch.range(0, 15)` there for a torch without
    `arange`; rewriting the branch kept for its absence makes it the same as the other."""
    child: ast.AST = node
    for parent in ancestors:
        if isinstance(parent, (ast.If, ast.IfExp)) and child is not parent.test:
            test, negated = parent.test, False
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                test, negated = test.operand, True
            if (isinstance(test, ast.Call) and len(test.args) == 2 and not test.keywords
                    and isinstance(test.func, ast.Name) and test.func.id == "hasattr"
                    and isinstance(test.args[1], ast.Constant)
                    and isinstance(test.args[1].value, str)):
                owner = file.semantic.qualified_name(test.args[0])
                checked = f"{owner}.{test.args[1].value}" if owner else None
                in_body = child in parent.body if isinstance(parent, ast.If) \
                    else parent.body is child
                if checked and (replacement == checked or replacement.startswith(
                        checked + ".")) and in_body == negated:
                    return True
        child = parent
    return False


def _mirrored_in_test(file: FileContext, name: str, node: ast.AST,
                      ancestors: list[ast.AST]) -> bool:
    """Whether a test function uses the torch call as the reference for the same name of
    another library: mindtorch, a torch API on MindSpore, tests `ms_torch.range(1, 10)`
    against `torch.range(1, 10)` and `k1.ger(k2)` against `torch.ger(v1, v2)` (round 56:
    21 migrations of the reference called noise, one wrong). The test keeps the torch
    call its twin imitates."""
    function = next((parent for parent in ancestors
                     if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if function is None or not (function.name.startswith("test")
                                or is_test_path(file.path)):
        return False
    for inner in ast.walk(function):
        if isinstance(inner, ast.Attribute) and inner.attr == name and inner is not node:
            owner = file.semantic.qualified_name(inner.value)
            if (owner is None or not (owner == "torch" or owner.startswith("torch."))) \
                    and not _reaches_torch(file, inner.value):
                return True
    return False


def _reaches_torch(file: FileContext, value: ast.expr) -> bool:
    """Whether `value` is torch or a local bound to a torch call (`v1 = torch.arange(...)`
    then `v1.ger(v2)`: a torch tensor's method, not another library's)."""
    if isinstance(value, ast.Name):
        for binding in file.semantic.bindings(value):
            bound = binding.value
            if isinstance(bound, ast.Call):
                meaning = file.semantic.qualified_name(bound.func) or ""
                if meaning == "torch" or meaning.startswith("torch."):
                    return True
    return False


def _availability_guarded(file: FileContext, node: ast.AST) -> bool:
    """Whether the use runs only where an enclosing `if` (or conditional expression) checks
    that a part of torch is there (`torch.distributed.is_available()`: lightning-thunder's
    `*((torch.distributed._tensor.DTensor,) if torch.distributed.is_available() else ())`,
    round 22): the import the fix adds at the top of the module would run everywhere."""
    child: ast.AST = node
    for parent in file.semantic.ancestors(node):
        if isinstance(parent, (ast.If, ast.IfExp)) and child is not parent.test and any(
                isinstance(inner, ast.Attribute) and inner.attr == "is_available"
                for inner in ast.walk(parent.test)):
            return True
        child = parent
    return False


def _plain(call: ast.Call) -> bool:
    return not any(isinstance(a, ast.Starred) for a in call.args) and all(
        k.arg is not None for k in call.keywords)


def _keyword(call: ast.Call, name: str) -> ast.keyword | None:
    return next((k for k in call.keywords if k.arg == name), None)


def _fix_call(file: FileContext, entry: Entry, call: ast.Call, func: str,
              involved: frozenset[str]) -> _Fix | str:
    """A rename whose arguments must fit the new signature."""
    del func, involved
    if not _plain(call):
        return "its arguments are unpacked here: check them against the new signature"
    if entry.positional is not None and len(call.args) > entry.positional:
        return f"{len(call.args)} positional arguments: {entry.note or 'see the new signature'}"
    if entry.keywords is not None:
        extra = [k.arg for k in call.keywords if k.arg not in entry.keywords]
        if extra:
            return f"`{extra[0]}=`: {entry.note or 'see the new signature'}"
    adds = tuple(AddKeyword(call, name, value) for name, value in entry.add_keywords)
    return _Fix(adds, entry.safety)


def _fix_cholesky(file: FileContext, entry: Entry, call: ast.Call, func: str,
                  involved: frozenset[str]) -> _Fix | str:
    """`torch.cholesky(A, upper)` → `torch.linalg.cholesky(A, upper=upper)`."""
    del func, involved
    if not _plain(call) or len(call.args) != 1 or any(
            k.arg not in ("upper", "out") for k in call.keywords):
        return "check its arguments against torch.linalg.cholesky(A, *, upper=False, out=None)"
    # torch.linalg.cholesky takes `upper=` and `out=` as keywords, as torch.cholesky did.
    return _Fix((), entry.safety)


def _fix_qr(file: FileContext, entry: Entry, call: ast.Call, func: str,
            involved: frozenset[str]) -> _Fix | str:
    """`torch.qr(A, some=False)` → `torch.linalg.qr(A, mode="complete")`."""
    del func, involved
    if not _plain(call) or len(call.args) != 1 or any(
            k.arg not in ("some", "out") for k in call.keywords):
        return "check its arguments against torch.linalg.qr(A, mode='reduced', *, out=None)"
    edits: list[Edit] = []
    some = _keyword(call, "some")
    if some is not None:
        value = file.semantic.literal(some.value)
        if value is True:
            mode = '"reduced"'
        elif value is False:
            mode = '"complete"'
        else:
            mode = f'"reduced" if {_operand(file, some.value)} else "complete"'
        edits.append(RenameKeyword(call, "some", "mode", mode))
    return _Fix(tuple(edits), entry.safety)


def _fix_chain_matmul(file: FileContext, entry: Entry, call: ast.Call, func: str,
                      involved: frozenset[str]) -> _Fix | str:
    """`torch.chain_matmul(a, b, c)` → `torch.linalg.multi_dot([a, b, c])`."""
    if not _plain(call) or any(k.arg != "out" for k in call.keywords):
        return "its matrices are unpacked here: pass multi_dot a list of at least two"
    if len(call.args) < 2:
        return "multi_dot needs at least two matrices"
    if _holds(file, call.args, involved):
        return "a deprecated call in its arguments: fix that one first"
    matrices = ", ".join(file.source(arg) for arg in call.args)
    out = _keyword(call, "out")
    tail = f", out={file.source(out.value)}" if out is not None else ""
    return _Fix((ReplaceNode(call, f"{func}([{matrices}]{tail})"),), entry.safety)


def _fix_range(file: FileContext, entry: Entry, call: ast.Call, func: str,
               involved: frozenset[str]) -> _Fix | str:
    """`torch.range(a, b)` → `torch.arange(a, b + 1, dtype=torch.get_default_dtype())`."""
    del func
    model = file.semantic
    if not _plain(call) or len(call.args) > 3:
        return "check its arguments against torch.arange(start, end, step)"
    positional = list(call.args)
    named = {k.arg: k.value for k in call.keywords}
    if len(positional) == 1 and "end" not in named:
        end, start, step = positional[0], named.get("start"), named.get("step")
    else:
        start = positional[0] if positional else named.get("start")
        end = positional[1] if len(positional) > 1 else named.get("end")
        step = positional[2] if len(positional) > 2 else named.get("step")
    if end is None:
        return "it has no end"
    if _holds(file, [end], involved):
        return "a deprecated call in its end: fix that one first"
    values = [model.literal(start) if start is not None else 0, model.literal(end),
              model.literal(step) if step is not None else 1]
    ints = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
    floats = any(isinstance(v, float) for v in values)
    step_value = values[2]
    edits: list[Edit] = []
    end_value = values[1]
    if ints and step_value == 0:
        return "its step is 0"
    if ints:
        # the step after the last value (mindtorch's `torch.range(1, 10, 2)`, round 56,
        # is `torch.arange(1, 11, 2)`; `end + step`, 12, added 11)
        start_value: int = values[0]  # type: ignore[assignment]
        count = (end_value - start_value) // step_value + 1  # type: ignore[operator]
        edits.append(ReplaceNode(end, str(start_value + count * step_value)))
    elif (step_value == 1 and isinstance(end, ast.BinOp) and isinstance(end.op, ast.Sub)
          and model.literal(end.right) == 1):
        edits.append(ReplaceNode(end, file.source(end.left)))
    else:
        step_text = file.source(step) if step is not None else "1"
        edits.append(ReplaceNode(end, f"{_operand(file, end)} + {_operand(file, step_text)}"))
    if "dtype" not in named and not floats:
        spelled = refer(file, call, "torch.get_default_dtype", via=_chain(call.func))
        if spelled is None:
            return "torch is not reachable here to keep the default dtype"
        edits.append(AddKeyword(call, "dtype", f"{spelled.text}()"))
        edits.extend(spelled.imports)
    # Exact for integers; with float or unknown bounds the element count may differ by one
    # where the end is not a multiple of the step away from the start.
    return _Fix(tuple(edits), Safety.SAFE if ints else Safety.UNSAFE)


_CALL_FIXES: dict[str, CallFix] = {
    "call": _fix_call,
    "cholesky": _fix_cholesky,
    "qr": _fix_qr,
    "chain_matmul": _fix_chain_matmul,
    "range": _fix_range,
}


# -- helpers ---------------------------------------------------------------------------------

_ATOMS = (ast.Name, ast.Attribute, ast.Call, ast.Constant, ast.Subscript, ast.List, ast.Tuple)


def _operand(file: FileContext, node: ast.expr | str) -> str:
    """The text of `node`, parenthesized unless it binds tighter than any operator."""
    if isinstance(node, str):
        return node
    text = file.source(node)
    if isinstance(node, _ATOMS) and not (isinstance(node, ast.Constant)
                                         and isinstance(node.value, (int, float))
                                         and text.startswith("-")):
        return text
    return f"({text})"


def _chain(node: ast.expr) -> ast.expr | None:
    return node if isinstance(node, (ast.Attribute, ast.Name)) else None


def _holds(file: FileContext, nodes: Sequence[ast.expr], names: frozenset[str]) -> bool:
    model = file.semantic
    return any(
        isinstance(inner, (ast.Name, ast.Attribute)) and model.qualified_name(inner) in names
        for node in nodes for inner in ast.walk(node)
    )


def _member(file: FileContext, use: ast.Name) -> str | None:
    parent = file.semantic.parent(use)
    if isinstance(parent, ast.Attribute) and parent.value is use:
        return parent.attr
    return None


def _binding_of(file: FileContext, alias: ast.alias) -> Binding | None:
    model = file.semantic
    scope = model.scope_of(alias)
    name = alias.asname or alias.name.split(".")[0]
    return next((b for b in scope.local(name) if b.node is alias), None)


def import_from_text(module: str, names: Sequence[tuple[str, str | None]], old: str) -> str:
    """`from module import a, b as c`, one line, or one name per line when the old
    statement spanned several."""
    parts = [name + (f" as {alias}" if alias else "") for name, alias in names]
    one_line = f"from {module} import {', '.join(parts)}"
    if "\n" not in old and len(one_line) <= 99:
        return one_line
    inner = "".join(f"    {part},\n" for part in parts)
    return f"from {module} import (\n{inner})"


class CatalogueCodemod(Codemod):
    """A codemod made of rows of the migration catalogue: its `table` decides."""

    table: ClassVar[Table]
    # A renamed `from` import that sorts elsewhere in its block is moved there.
    editor = "torchfix.rewrite.import_move_edit:ImportMoveEditor"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return cls.table.candidate_lines(tree)

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        return cls.table.check(file)
