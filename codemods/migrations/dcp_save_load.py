"""dcp-save-load: distributed checkpoint's `save_state_dict`/`load_state_dict` → `save`/`load`."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.model.ast_index import nodes_of
from torchfix.model.semantic import BindingKind, SemanticModel
from torchfix.rewrite.contract import Codemod, FileContext, Finding, ReplaceNode, Safety

from .calls import calls_named, plain, spell_function, too_new

MODULE = "torch.distributed.checkpoint"
# old name → (new name, the old positional parameters after state_dict)
FUNCTIONS = {
    "save_state_dict": ("save", ("storage_writer", "process_group", "coordinator_rank",
                                 "no_dist", "planner")),
    "load_state_dict": ("load", ("storage_reader", "process_group", "coordinator_rank",
                                 "no_dist", "planner")),
}
OLD = {f"{MODULE}.{name}" for name in FUNCTIONS} | {
    f"{MODULE}.state_dict_saver.save_state_dict", f"{MODULE}.state_dict_loader.load_state_dict"}
SINCE = (2, 2)


class DcpSaveLoad(Codemod):
    """Move `dcp.save_state_dict` / `dcp.load_state_dict` to `dcp.save` / `dcp.load`.

    ## What it does
    `torch.distributed.checkpoint.save_state_dict(state_dict, writer)` becomes
    `torch.distributed.checkpoint.save(state_dict, storage_writer=writer)`, and
    `load_state_dict(state_dict, reader)` becomes `load(state_dict, storage_reader=reader)`:
    the new functions take everything after the state dict by keyword.

    ## Why
    Both old functions are deprecated since torch 2.2 and warn on every call.

    ## Example
    ```python
    import torch.distributed.checkpoint as dcp

    dcp.save_state_dict(state, dcp.FileSystemWriter(path))
    ```
    becomes
    ```python
    dcp.save(state, storage_writer=dcp.FileSystemWriter(path))
    ```

    ## Fix safety
    For a state dict of tensors and state dicts the new functions do what the old ones
    did, so the fix is **safe** where the state dict is visibly that (a dict of
    `.state_dict()` calls, or a `.state_dict()` call). Otherwise it is **unsafe**: `save`
    and `load` also call `state_dict()` / `load_state_dict()` on values that have them
    (modules, optimizers, Stateful objects), where the old functions stored the objects
    as they were. A `coordinator_rank` other than 0 (the new functions have none) is
    reported. The new functions need torch >= 2.2.
    """

    name = "dcp-save-load"
    summary = "Move distributed checkpoint's save_state_dict/load_state_dict to save/load."
    # Any use imports torch.distributed.checkpoint, or names it in full.
    triggers = (b"distributed.checkpoint", b"distributed import checkpoint")
    fix_safety = "safe, unsafe"
    family = "migrations"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        if not _imports_checkpointing(tree):
            return set()
        return {call.lineno for call in calls_named(tree, FUNCTIONS)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        model = file.semantic
        for call in calls_named(file.tree, FUNCTIONS):
            meaning = model.qualified_name(call.func)
            if meaning not in OLD:
                continue
            old = meaning.rsplit(".", 1)[-1]
            new, parameters = FUNCTIONS[old]
            if _chosen_against(model, call, f"{MODULE}.{new}"):
                continue  # the fallback for a torch whose dcp.{new} lacks what it needs
            message = f"dcp.{old} is deprecated: use dcp.{new}"
            problem = _arguments_problem(model, call, parameters) or too_new(
                file, SINCE, f"dcp.{new}")
            if problem:
                yield Finding(call, f"{message} ({problem})", Safety.MANUAL)
                continue
            function = spell_function(file, call, f"{MODULE}.{new}", from_import=True,
                                      module_import=MODULE)
            if function is None:
                yield Finding(call, f"{message} (the name {new} is taken here)", Safety.MANUAL)
                continue
            arguments = [file.source(call.args[0])] if call.args else []
            arguments += [f"{name}={file.source(value)}"
                          for name, value in zip(parameters, call.args[1:], strict=False)
                          if name != "coordinator_rank"]
            arguments += [f"{k.arg}={file.source(k.value)}" for k in call.keywords
                          if k.arg != "coordinator_rank"]
            state = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "state_dict"), None)
            unsafe = (file.undeclared_floor(SINCE, f"dcp.{new}") if state is not None
                      and _plain_state(model, state) else "it also calls state_dict() / "
                      "load_state_dict() on values that have them")
            yield Finding(
                call, f"{message} (unsafe: {unsafe})" if unsafe else message,
                Safety.UNSAFE if unsafe else Safety.SAFE,
                (ReplaceNode(call, f"{function.text}({', '.join(arguments)})"),
                 *function.imports))


def _chosen_against(model: SemanticModel, call: ast.Call, new: str) -> bool:
    """Whether `call` is in a branch of an `if` whose test reads the new function
    (`if "no_dist" in inspect.signature(dcp.load).parameters: ... else:
    dcp.load_state_dict(...)`, spikingjelly, round 23): the code already chooses between
    the two APIs by what the installed torch offers."""
    for node in model.ancestors(call):
        if isinstance(node, ast.If | ast.IfExp) and not any(
                a is node.test for a in model.ancestors(call)) and any(
                model.qualified_name(part) == new for part in ast.walk(node.test)
                if isinstance(part, ast.Attribute | ast.Name)):
            return True
    return False


def _imports_checkpointing(tree: ast.Module) -> bool:
    """Whether the file imports torch.distributed.checkpoint (load_state_dict is common)."""
    return any(
        node.module and (node.module.startswith(MODULE) or (
            node.module == "torch.distributed" and any(a.name == "checkpoint" for a in node.names)))
        for node in nodes_of(tree, ast.ImportFrom)
    ) or any(a.name.startswith(MODULE) for node in nodes_of(tree, ast.Import) for a in node.names)


def _arguments_problem(model: SemanticModel, call: ast.Call, parameters: tuple[str, ...]
                       ) -> str | None:
    if not plain(call):
        return "its arguments are unpacked here"
    if len(call.args) > 1 + len(parameters):
        return "too many arguments"
    given = dict(zip(parameters, call.args[1:], strict=False))
    given.update({k.arg: k.value for k in call.keywords})  # type: ignore[misc]
    rank = given.get("coordinator_rank")
    if rank is not None and model.literal(rank) != 0:
        return "the new function has no coordinator_rank: rank 0 coordinates"
    return None


def _plain_state(model: SemanticModel, node: ast.expr, depth: int = 2) -> bool:
    """A `.state_dict()` call, a dict of them, or a name bound once to one of those."""
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Attribute) and node.func.attr == "state_dict"
    if isinstance(node, ast.Dict):
        return all(key is not None and _plain_state(model, value, depth)
                   for key, value in zip(node.keys, node.values, strict=True))
    if isinstance(node, ast.Name) and depth > 0:
        bindings = model.bindings(node)
        return (len(bindings) == 1 and bindings[0].kind is BindingKind.ASSIGNMENT
                and bindings[0].value is not None and not bindings[0].augmented
                and _plain_state(model, bindings[0].value, depth - 1))
    return False
