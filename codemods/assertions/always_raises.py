"""Assert tests that raise before they can fail: a rewrite into `if not ...: raise` would
promise an exception the code never reaches.

Two shapes the fresh reviews met, each read as a wrong fix (rounds 41-43):
- `len(self.actor.parameters()) > 0` (pytorch-policy): `Module.parameters()` and its
  siblings return generators, and `len` of a generator is a TypeError on every call.
- `padding_idx < self.num_embeddings` in the `__init__` of an `nn.Module` that never sets
  `num_embeddings` (bitorch-engine's `QEmbeddingBag`, lightorch's `self.h_div`): an
  AttributeError on every call, where the author meant the constructor's parameter.

Both are reported, not rewritten: the check itself is the bug.
"""

from __future__ import annotations

import ast
from pathlib import Path

from torchfix.model.project import Project, register_derived_fact
from torchfix.model.scan_memo import parse_if_mentions, project_modules
from torchfix.model.semantic import SemanticModel

from .raise_census import last_part

# `Module` methods that return generators (and `len` of one is a TypeError).
GENERATOR_METHODS = frozenset({"parameters", "named_parameters", "buffers", "named_buffers",
                               "children", "named_children", "modules", "named_modules"})
# What every `torch.nn.Module` has, as an attribute or a method (torch 2.x `dir()`), and
# the names `__init__` sets: reading one of these on `self` never fails.
MODULE_ATTRIBUTES = frozenset({
    "T_destination", "_apply", "_backward_hooks", "_backward_pre_hooks", "_buffers",
    "_call_impl", "_compiled_call_impl", "_forward_hooks",
    "_forward_hooks_always_called", "_forward_hooks_with_kwargs", "_forward_pre_hooks",
    "_forward_pre_hooks_with_kwargs", "_get_backward_hooks", "_get_backward_pre_hooks",
    "_get_name", "_is_full_backward_hook", "_load_from_state_dict",
    "_load_state_dict_post_hooks", "_load_state_dict_pre_hooks",
    "_maybe_warn_non_full_backward_hook", "_modules", "_named_members",
    "_non_persistent_buffers_set", "_parameters", "_register_load_state_dict_pre_hook",
    "_register_state_dict_hook", "_replicate_for_data_parallel", "_save_to_state_dict",
    "_slow_forward", "_state_dict_hooks", "_state_dict_pre_hooks", "_version",
    "_wrapped_call_impl", "add_module", "apply", "bfloat16", "buffers",
    "call_super_init", "children", "compile", "cpu", "cuda", "double", "dump_patches",
    "eval", "extra_repr", "float", "forward", "get_buffer", "get_extra_state",
    "get_parameter", "get_submodule", "half", "ipu", "load_state_dict", "modules",
    "mtia", "named_buffers", "named_children", "named_modules", "named_parameters",
    "parameters", "register_backward_hook", "register_buffer", "register_forward_hook",
    "register_forward_pre_hook", "register_full_backward_hook",
    "register_full_backward_pre_hook", "register_load_state_dict_post_hook",
    "register_load_state_dict_pre_hook", "register_module", "register_parameter",
    "register_state_dict_post_hook", "register_state_dict_pre_hook", "requires_grad_",
    "set_extra_state", "set_submodule", "share_memory", "state_dict", "to", "to_empty",
    "train", "training", "type", "xpu", "zero_grad"
})
# The bases whose instances have only what `MODULE_ATTRIBUTES` lists and what the class
# sets itself.
PLAIN_BASES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module",
                         "builtins.object"})
# Class-level names that let attributes appear without an assignment torchfix can see.
DYNAMIC_HOOKS = frozenset({"__getattr__", "__getattribute__", "__setattr__", "__slots__",
                           "__dict__"})
# Calls that bind an attribute by a name they are handed (`setattr(self, name, v)`,
# `self.register_buffer(name, t)`): with a name that is not a literal, anything may be set.
NAMED_BINDERS = frozenset({"setattr", "register_buffer", "register_parameter",
                           "add_module", "register_module"})

# Which classes of the project bind the attribute `name` (`self.name = ...` in a method,
# `name = ...` or `def name` in the class body): "Class(Base,Other);..." with the last
# part of each base's name; "" where nothing binds it; "*" where something binds it on
# another object (`model.name = ...`), or holds the string "name" (as `setattr` and
# `register_buffer` take). name: the attribute.
ATTRIBUTE_BINDERS = "assert-to-raise/attribute-binders"
ANYWHERE = "*"


def generator_length(test: ast.expr, model: SemanticModel) -> str | None:
    """The source of a `len(x.parameters())` (or `len(<generator expression>)`) the test
    computes; None where it computes none."""
    for node in ast.walk(test):
        if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
                and model.qualified_name(node.func) == "builtins.len"):
            continue
        argument = node.args[0]
        if isinstance(argument, ast.GeneratorExp) or (
                isinstance(argument, ast.Call) and isinstance(argument.func, ast.Attribute)
                and argument.func.attr in GENERATOR_METHODS):
            return ast.unparse(node)
    return None


def unset_attribute(test: ast.expr, function: ast.FunctionDef | ast.AsyncFunctionDef,
                    owner: ast.ClassDef, model: SemanticModel, project: Project) -> str | None:
    """The `self.<name>` an `__init__`'s test reads that nothing can have set: the
    method's class derives from `nn.Module` through classes of this file alone, none of
    which binds attributes by computed names; neither they nor a subclass set it (`self.
    name = ...`, a class attribute or method), and no module of the project sets it on
    another object (`x.name = ...`) or holds the string "name" (as `setattr` or
    `register_buffer` take). None otherwise."""
    if function.name != "__init__" or not function.args.args or _decorated_away(function):
        return None  # later, code outside may have set it (`setattr(model, key, value)`)
    me = function.args.args[0].arg
    reads = sorted({node.attr for node in ast.walk(test)
                    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)
                    and isinstance(node.value, ast.Name) and node.value.id == me
                    and node.attr not in MODULE_ATTRIBUTES and not node.attr.startswith("__")})
    lineage = _module_lineage(owner, model) if reads else None
    if not lineage:
        return None
    for name in reads:
        # this file first (nearly always the answer: the class sets what it reads), then
        # the project's other modules
        if _set_for(_binders(model.tree, name), lineage) or \
                _set_for(project.derived(ATTRIBUTE_BINDERS, name), lineage):
            continue
        return f"{me}.{name}"
    return None


def _set_for(binders: str, lineage: set[str]) -> bool:
    """Whether `ATTRIBUTE_BINDERS`' answer says the attribute may be set on an instance
    of the lineage's class: set anywhere, by a class of the lineage, or by a subclass
    (which may set it before the read)."""
    if binders == ANYWHERE:
        return True
    classes = [binder.partition("(") for binder in binders.split(";") if binder]
    return any(cls in lineage or set(bases.rstrip(")").split(",")) & lineage
               for cls, _, bases in classes)


def _decorated_away(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the first parameter may not be the instance (a static or class method, or
    any decorator that could pass something else)."""
    return bool(function.decorator_list)


def _module_lineage(owner: ast.ClassDef, model: SemanticModel) -> set[str]:
    """The names of the class and its bases where all are defined in this file, reach
    `torch.nn.Module` (and nothing else but `object`), and none of them can gain
    attributes torchfix would not see (decorators, metaclasses, `__getattr__`, computed
    `setattr` names); empty otherwise. (A plain class may be a mixin whose partner sets
    the attribute; torch modules are rarely mixed.)"""
    classes = {node.name: node for node in model.tree.body if isinstance(node, ast.ClassDef)}
    seen: set[str] = set()
    reaches_module = False
    queue = [owner]
    while queue:
        cls = queue.pop()
        if cls.name in seen:
            continue
        seen.add(cls.name)
        if cls.decorator_list or cls.keywords or _binds_dynamically(cls):
            return set()
        for base in cls.bases:
            qualified = model.qualified_name(base)
            if qualified in PLAIN_BASES:
                reaches_module = reaches_module or qualified != "builtins.object"
                continue
            if isinstance(base, ast.Name) and base.id in classes \
                    and qualified is not None and qualified.endswith(f".{base.id}"):
                queue.append(classes[base.id])
                continue
            return set()
    return seen if reaches_module else set()


def _binds_dynamically(cls: ast.ClassDef) -> bool:
    for node in ast.walk(cls):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.name in DYNAMIC_HOOKS:
            return True
        if isinstance(node, ast.Name) and node.id in DYNAMIC_HOOKS | {"vars"}:
            return True
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            return True
        if isinstance(node, ast.Call):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else \
                node.func.id if isinstance(node.func, ast.Name) else None
            names = node.args[1:2] if called == "setattr" else node.args[:1]
            if called in NAMED_BINDERS and not (
                    names and isinstance(names[0], ast.Constant)):
                return True
    return False


def attribute_binders(project: Project, name: str) -> str:
    """See `ATTRIBUTE_BINDERS`. Only modules whose text holds the name are parsed; each
    file's answer is remembered by the scan memo."""
    memo = project.memo(ATTRIBUTE_BINDERS.replace("/", "-"))
    paths = [*project_modules(project.root), *project_modules(project.root, tests=True)]

    def binders_in(path: Path) -> str:
        try:
            if name.encode() not in path.read_bytes():
                return ""
        except OSError:
            return ""
        tree = parse_if_mentions(path, name.encode())
        return ANYWHERE if tree is None else _binders(tree, name)

    found: set[str] = set()
    try:
        for path in paths:
            answer = binders_in(path) if memo is None else \
                memo.result(path, f"{path}::{name}", binders_in)
            if answer == ANYWHERE:
                return ANYWHERE
            found.update(binder for binder in answer.split(";") if binder)
        return ";".join(sorted(found))
    finally:
        if memo is not None:
            memo.save()


def _binders(tree: ast.Module, name: str) -> str:
    """The module's part of `ATTRIBUTE_BINDERS`."""
    found: set[str] = set()
    own: set[int] = set()  # the `self.<name>` stores of the methods
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        binds = _class_binds(cls.body, name)
        for method in cls.body:
            if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method.args.args:
                stores = _stores_on(method, method.args.args[0].arg, name)
                own.update(map(id, stores))
                binds = binds or bool(stores)
        if binds:
            found.add(f"{cls.name}({','.join(last_part(base) or '?' for base in cls.bases)})")
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value == name:
            return ANYWHERE
        if isinstance(node, ast.Attribute) and node.attr == name \
                and isinstance(node.ctx, (ast.Store, ast.Del)) and id(node) not in own:
            return ANYWHERE
    return ";".join(sorted(found))


def _stores_on(method: ast.FunctionDef | ast.AsyncFunctionDef, me: str, name: str
               ) -> list[ast.Attribute]:
    return [node for node in ast.walk(method)
            if isinstance(node, ast.Attribute) and node.attr == name
            and isinstance(node.ctx, (ast.Store, ast.Del))
            and isinstance(node.value, ast.Name) and node.value.id == me]


def _class_binds(body: list[ast.stmt], name: str) -> bool:
    """Whether a class body (its own statements, `if` and `try` blocks included, not its
    methods) binds `name`, or defines a method or class of that name."""
    for statement in body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if statement.name == name:
                return True
            continue
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and node.id == name \
                    and isinstance(node.ctx, ast.Store):
                return True
    return False


register_derived_fact(ATTRIBUTE_BINDERS, attribute_binders)
