"""The entries of the checkpoints a project writes, and of those it loads as trusted files.

`model.load_state_dict(torch.load(path)["net"])` reads one entry of a file that holds
more: `weights_only=True` unpickles every entry, not only the one read. Whether the other
entries are only tensors and plain containers is known where the project itself
`torch.save`s a dict holding "net" (its other keys are in sight), not where the file is
written by another library (an accelerate driver, a trainer) or downloaded: StyleTTS2's
published F0 checkpoint holds pickled objects beside its "net" (round 23), and tez's
`Tez.save` writes a `TezConfig` beside "state_dict" through its driver. A project that
loads files holding an entry with `weights_only=False` elsewhere says they hold more.

One project-wide fact, each file's part remembered between runs: one line per entry,
"saved\\t<key>\\t<path>:<line>\\t<object key or empty>" for a key of a dict the project
`torch.save`s (with the key of an entry of the same dict that holds a pickled object,
`args`, `config`), "trusted\\t<key>\\t<path>:<line>" for a key read from a
`torch.load(..., weights_only=False)`, and "trusted-path\\t<self.attribute>\\t<path>:<line>"
for a `self.<attribute>` path such a load reads (deepinv's Trainer, round 17).
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from pathlib import Path

from torchfix.model.ast_index import nodes_of
from torchfix.model.project import Project, register_derived_fact
from torchfix.model.scan_memo import every_answer, parse_if_mentions, project_modules

from .atomic_save import HELPER, MODULE_HELPER

CHECKPOINT_KEYS = "load-weights-only/checkpoint-keys"

# Checkpoint keys that hold pickled objects rather than tensors and plain containers:
# Lightning's hyperparameters, callback and loop states, an argparse `Namespace` (`args`,
# `opt`), OmegaConf configs (`cfg`), pyannote.audio's task specifications.
OBJECT_KEYS = frozenset({
    "hyper_parameters", "datamodule_hyper_parameters", "hparams", "callbacks", "loops",
    "args", "opt", "namespace", "cfg", "specifications", "pyannote.audio",
})
# An entry the project saves under these keys (or from a name or attribute spelled so),
# beside the one a load reads: a `config` a trainer saves is its config object, while a
# `ckpt["config"]` a load reads may as well be a plain dict.
OBJECT_ENTRIES = OBJECT_KEYS | {"config"}
# Callees that write what torch.save writes: torch's and torchfix's atomic helpers. Any
# other `<x>.save(obj, path)` counts too: accelerate's, Fabric's, torch_xla's and a
# trainer's driver's (tez) torch.save what they are given.
_SAVERS = frozenset({"torch.save", HELPER, MODULE_HELPER})

@dataclass(frozen=True)
class CheckpointKeys:
    """What the project's own code says about checkpoint entries, key by key."""

    saved: dict[str, list[tuple[str, str]]]  # key -> [(where, object entry beside it)]
    trusted: dict[str, str]  # key -> where a weights_only=False load reads it
    trusted_paths: dict[str, str]  # `self.x` -> where a weights_only=False load reads it

    def trusted_entry(self, keys: set[str]) -> tuple[str, str] | None:
        """(entry, where) for the first of `keys` that the project loads from files with
        weights_only=False; None where it loads none so."""
        return next(((key, self.trusted[key]) for key in sorted(keys) if key in self.trusted),
                    None)

    def judge(self, keys: set[str], path: str) -> str | None:
        """Why a load (in the module at `path`, relative to the project root) reading
        the entries `keys` of a file may meet more than tensors there; None where the
        project's own torch.save writes them beside plain entries only. The module's own
        saves, where it has some, are the ones that write what it loads."""
        trusted = self.trusted_entry(keys)
        if trusted is not None:
            key, where = trusted
            return (f'the project loads files holding "{key}" with weights_only=False '
                    f"at {where}, as files holding more than tensors")
        written = [entry for key in sorted(keys) for entry in self.saved.get(key, ())]
        here = [entry for entry in written if entry[0].rpartition(":")[0] == path]
        written = here or written
        if not written:
            shown = ", ".join(f'"{key}"' for key in sorted(keys))
            return (f"it reads the {shown} entry of a checkpoint the project does not "
                    f"torch.save itself (downloaded, or written by another library), whose "
                    f"other entries may hold more than tensors")
        if all(beside for _, beside in written):
            where, beside = written[0]
            return (f'the project saves it beside "{beside}" ({where}), an entry holding '
                    f"a pickled object")
        return None


def checkpoint_keys(project: Project, root: str) -> str:
    """The fact's text for the modules below `root` (tests aside)."""
    paths = list(project_modules(root))
    answers = every_answer(project.memo(CHECKPOINT_KEYS.replace("/", "-")), paths,
                           _entries_in)
    lines = []
    for path, entries in zip(paths, answers, strict=True):
        where = Path(os.path.relpath(path, root)).as_posix()
        lines.extend("\t".join([kind, key, f"{where}:{line}", *rest])
                     for kind, key, line, *rest in entries)
    return "\n".join(lines)


def read_checkpoint_keys(project: Project) -> CheckpointKeys:
    saved: dict[str, list[tuple[str, str]]] = {}
    trusted: dict[str, str] = {}
    trusted_paths: dict[str, str] = {}
    for line in project.derived(CHECKPOINT_KEYS, str(project.root)).splitlines():
        kind, key, where, *rest = line.split("\t")
        if kind == "saved":
            saved.setdefault(key, []).append((where, rest[0] if rest else ""))
        else:
            (trusted if kind == "trusted" else trusted_paths).setdefault(key, where)
    return CheckpointKeys(saved, trusted, trusted_paths)


def _entries_in(path: Path) -> list[list[str | int]]:
    tree = parse_if_mentions(path, b"save(", b"weights_only=False")
    if tree is None:
        return []
    found: list[list[str | int]] = []
    for scope in [tree, *nodes_of(tree, ast.FunctionDef), *nodes_of(tree, ast.AsyncFunctionDef)]:
        body = list(_own_nodes(scope))
        calls = [node for node in body if isinstance(node, ast.Call)]
        save = next((call for call in calls if _is_saver(call)), None)
        if save is not None:
            entries = list(_dict_entries(body))
            beside = next((key for key, value in entries if _holds_object(key, value)), "")
            found.extend(["saved", key, save.lineno, beside] for key, _ in entries
                         if _plain(key) and _plain(beside))
        # `path = self.ckpt_pretrained` then `torch.load(path, ...)`: deepinv's Trainer
        aliases = {target.id: node.value for node in body
                   if isinstance(node, ast.Assign) and is_self_attribute(node.value)
                   for target in node.targets if isinstance(target, ast.Name)}
        for call in calls:
            if not loads_trusted(call):
                continue
            found.extend(["trusted", key, call.lineno] for key in _keys_of(call, body)
                         if _plain(key))
            source = call.args[0] if call.args else None
            if isinstance(source, ast.Name):
                source = aliases.get(source.id, source)
            if source is not None and is_self_attribute(source):
                found.append(["trusted-path", ast.unparse(source), call.lineno])
    return found


def _plain(key: str) -> bool:
    """A key the fact's lines can hold (no tab, no line break)."""
    return "\t" not in key and "\n" not in key and "\r" not in key


def is_self_attribute(node: ast.expr) -> bool:
    """`self.<attribute>`."""
    return (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "self")


def _own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of `scope`'s body, nested functions and classes aside."""
    nodes: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        nodes.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return nodes


def _is_saver(call: ast.Call) -> bool:
    if ast.unparse(call.func) in _SAVERS:
        return True
    return (isinstance(call.func, ast.Attribute) and call.func.attr == "save"
            and len(call.args) >= 2)


def _dict_entries(body: list[ast.AST]) -> list[tuple[str, ast.expr]]:
    """(key, value) of the string-keyed entries the scope builds: dict displays,
    `ckpt["key"] = value` and `dict(key=value)`."""
    entries: list[tuple[str, ast.expr]] = []
    for node in body:
        if isinstance(node, ast.Dict):
            entries.extend((key.value, value) for key, value in zip(node.keys, node.values,
                                                                     strict=True)
                           if isinstance(key, ast.Constant) and isinstance(key.value, str))
        elif isinstance(node, ast.Assign):
            entries.extend((target.slice.value, node.value) for target in node.targets
                           if isinstance(target, ast.Subscript)
                           and isinstance(target.slice, ast.Constant)
                           and isinstance(target.slice.value, str))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "dict"):
            entries.extend((k.arg, k.value) for k in node.keywords if k.arg is not None)
    return entries


def _holds_object(key: str, value: ast.expr) -> bool:
    """`"args": args`, `"config": self.config`: an entry checkpoints keep objects in."""
    if key in OBJECT_ENTRIES:
        return True
    name = value.attr if isinstance(value, ast.Attribute) else \
        value.id if isinstance(value, ast.Name) else ""
    return name in OBJECT_ENTRIES


def loads_trusted(call: ast.Call) -> bool:
    """`<x>.load(..., weights_only=False)`: a load of a file the code trusts."""
    return (isinstance(call.func, ast.Attribute) and call.func.attr == "load"
            and any(k.arg == "weights_only" and isinstance(k.value, ast.Constant)
                    and k.value.value is False for k in call.keywords))


def _keys_of(load: ast.Call, body: list[ast.AST]) -> set[str]:
    """The string keys the scope reads from what `load` returns: `torch.load(...)["k"]`,
    or through the name it is bound to (`ckpt["k"]`, `ckpt.get("k")`, `"k" in ckpt`)."""
    names = {target.id for node in body if isinstance(node, ast.Assign) and node.value is load
             for target in node.targets if isinstance(target, ast.Name)}
    keys: set[str] = set()
    for node in body:
        if isinstance(node, ast.Subscript) and (node.value is load or (
                isinstance(node.value, ast.Name) and node.value.id in names)):
            keys.update(_string(node.slice))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("get", "pop") and node.args
              and isinstance(node.func.value, ast.Name) and node.func.value.id in names):
            keys.update(_string(node.args[0]))
        elif (isinstance(node, ast.Compare) and len(node.ops) == 1
              and isinstance(node.ops[0], ast.In | ast.NotIn)
              and isinstance(node.comparators[0], ast.Name)
              and node.comparators[0].id in names):
            keys.update(_string(node.left))
    return keys


def _string(node: ast.expr) -> set[str]:
    return {node.value} if isinstance(node, ast.Constant) and isinstance(node.value, str) \
        else set()


register_derived_fact(CHECKPOINT_KEYS, checkpoint_keys)
