"""How to write a fully qualified name at a place in a file.

A fix that introduces `torch.linalg.cholesky` or `ResNet18_Weights` must spell it the way
the file can reach it: through the attribute chain already written at the use
(`th.cholesky` → `th.linalg.cholesky`), through a name the file imports (`models` from
`from torchvision import models`), or with an import added, never shadowing a name the
file binds to something else. No libcst here: the spelling is text plus `AddImport`s.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from torchfix.model.semantic import BUILTINS, BindingKind, SemanticModel
from torchfix.rewrite.contract import AddImport, Edit, FileContext, RemoveImport


@dataclass(frozen=True)
class Spelling:
    """How a name is written in a file, with the imports that text needs."""

    text: str
    imports: tuple[Edit, ...] = ()  # imports to add (or drop) for the text to work


def through_chain(file: FileContext, chain: ast.expr, qualified: str) -> str | None:
    """`qualified` written through a prefix of the attribute chain `chain` whose meaning
    is a prefix of it: `th.cholesky` (th = torch) and "torch.linalg.cholesky" give
    "th.linalg.cholesky". None when no prefix of the chain leads there."""
    found = _through_chain(file, chain, qualified)
    return found[0] if found else None


def _through_chain(file: FileContext, chain: ast.expr, qualified: str
                   ) -> tuple[str, str] | None:
    """(the spelling, the meaning of the prefix it goes through)."""
    node: ast.expr | None = chain
    while node is not None:
        meaning = file.semantic.qualified_name(node)
        if meaning is not None and (qualified == meaning or qualified.startswith(meaning + ".")):
            return file.source(node) + qualified[len(meaning):], meaning
        node = node.value if isinstance(node, ast.Attribute) else None
    return None


def refer(file: FileContext, at: ast.AST, qualified: str, *, via: ast.expr | None = None,
          from_import: bool = False, module_import: str | None = None,
          prefer_from_import: bool = False, aliases: tuple[str, ...] = ()
          ) -> Spelling | None:
    """`qualified` written at `at`, or None when every spelling would clash.

    `via`: an attribute chain written at the use, tried first. Then a module the file
    imports (`torch` for "torch.outer"). Then an import is added: `from M import name`
    with `from_import` (the name must be free in the whole file), else `import <top>`
    (or `module_import`, for submodules `import torch` does not load) and the full path.
    `prefer_from_import`: the name imported from its module comes first (where the
    documented spelling is `from torch.nn.attention import sdpa_kernel`), and before it a
    name the file imports already as `qualified`, under any name, or as one of `aliases`
    (other names of the same object: torch re-exports `torch._C._SDPBackend` as both
    `torch.nn.attention.SDPBackend` and `torch.backends.cuda.SDPBackend`, so with
    `from torch.backends.cuda import SDPBackend` it is "SDPBackend").
    """
    module, _, name = qualified.rpartition(".")
    if prefer_from_import:
        bound = _bound_as(file, at, (qualified, *aliases))
        if bound is not None:
            return Spelling(bound)
    if prefer_from_import and module and name_is_free(file, name, qualified):
        return Spelling(name, (AddImport(module, name),))
    if via is not None:
        found = _through_chain(file, via, qualified)
        if found is not None:
            return Spelling(found[0], _module_import(module_import, found[1]))
    found = _through_imports(file, at, qualified)
    if found is not None:
        return Spelling(found[0], _module_import(module_import, found[1]))
    if from_import and module and name_is_free(file, name, qualified):
        return Spelling(name, (AddImport(module, name),))
    top = qualified.split(".")[0]
    if not _top_is_free(file, at, top):
        return None
    return Spelling(qualified, (AddImport(module_import or top),))


def _bound_as(file: FileContext, at: ast.AST, meanings: tuple[str, ...]) -> str | None:
    """A name imported as one of `meanings` that means it wherever it is seen at `at`."""
    model = file.semantic
    scope = model.scope_of(at)
    for binding in model.imported_names():
        if binding.qualified_name not in meanings:
            continue
        seen = model.bindings_of(binding.name, scope)
        if seen and all(other.qualified_name == binding.qualified_name for other in seen):
            return binding.name
    return None


def _module_import(module: str | None, through: str) -> tuple[Edit, ...]:
    """`import module` when the spelling goes through a package above it (`import torch`
    does not load torch.distributed.tensor); nothing when it goes through the module."""
    if not module or through == module or through.startswith(module + "."):
        return ()
    return (AddImport(module),)


def _through_imports(file: FileContext, at: ast.AST, qualified: str) -> tuple[str, str] | None:
    """Through the longest imported name visible at `at` that leads to `qualified`:
    (the spelling, the meaning of that name)."""
    model = file.semantic
    scope = model.scope_of(at)
    best: tuple[str, str] | None = None
    for binding in model.imported_names():
        meaning = binding.qualified_name
        if meaning is None or not (qualified == meaning or qualified.startswith(meaning + ".")):
            continue
        seen = model.bindings_of(binding.name, scope)
        if not seen or any(other.qualified_name != meaning for other in seen):
            continue
        if best is None or len(meaning) > len(best[1]):
            best = (binding.name + qualified[len(meaning):], meaning)
    return best


def name_is_free(file: FileContext, name: str, qualified: str) -> bool:
    """Whether `name` can be imported as `qualified` at module level: nothing in the file
    binds it to anything else, and it is no builtin."""
    if name in BUILTINS:
        return False
    for scope in file.semantic.scopes:
        for binding in scope.local(name):
            if binding.qualified_name != qualified or not binding.is_import:
                return False
    return True


def _top_is_free(file: FileContext, at: ast.AST, top: str) -> bool:
    """Whether `top` at `at` means the module `top` (or nothing yet: `import top` is added)."""
    model = file.semantic
    if model.module_scope.star_imports:
        return False
    seen = model.bindings_of(top, model.scope_of(at))
    if any(b.qualified_name != top or not b.is_import for b in seen):
        return False
    # An import added at the top of the module must not be shadowed anywhere either, nor
    # give a meaning to reads of the name elsewhere that have none today.
    return all(
        b.is_import and b.qualified_name == top
        for scope in model.scopes for b in scope.local(top)
    ) and not reads_unbound(model, top)


def reads_unbound(model: SemanticModel, name: str) -> bool:
    """Whether the module reads `name` where nothing binds it (`torch.x` in a file that
    never imports torch): an import added for one fix would change what that code does,
    and let other fixes match it on a second run."""
    return any(load.id == name and not model.bindings(load) for load, _ in model.loads)


def without_module_import(file: FileContext, func: ast.Attribute, spelled: Spelling
                          ) -> Spelling:
    """`spelled` dropping the `import torch` (`import torch.nn as nn`) that `func`
    (`torch.backends.cuda.sdp_kernel`) goes through, when the new spelling does not: it
    goes once nothing else uses it (libcst's scope analysis decides, after the edit)."""
    base: ast.expr = func
    while isinstance(base, ast.Attribute):
        base = base.value
    if not isinstance(base, ast.Name) or spelled.text.split(".")[0] == base.id:
        return spelled
    binding = file.semantic.binding(base)
    if binding is None or binding.kind is not BindingKind.IMPORT:
        return spelled
    module = binding.qualified_name or base.id
    alias = binding.name if binding.name != module.split(".")[0] else None
    return Spelling(spelled.text, (*spelled.imports, RemoveImport(module, None, alias)))
