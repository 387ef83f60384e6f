"""strict-load-state-dict: make `nn.Module.load_state_dict` checkpoints strict, explicitly."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from enum import Enum
from pathlib import Path

from torchfix.model.ast_index import nodes_of
from torchfix.model.facts import Signature
from torchfix.model.project import is_torch_module_class
from torchfix.model.semantic import Binding, BindingKind, SemanticModel
from torchfix.model.test_code import is_test_path
from torchfix.rewrite.contract import (
    AddKeyword,
    Codemod,
    FileContext,
    Finding,
    Option,
    ReplaceNode,
    Safety,
)
from torchfix.rewrite.layout import PRAGMA, indent_unit, line_length


class Kind(Enum):
    MODULE = "module"  # an nn.Module: takes `strict`
    OTHER = "other"  # its load_state_dict takes no `strict` (an optimizer, a buffer, ...)
    UNKNOWN = "unknown"


# Classes outside the project that are nn.Modules (qualified as the semantic model
# qualifies them, i.e. by the name they are imported by).
MODULE_CLASSES = frozenset(
    {
        "torch.nn.Module", "torch.nn.modules.module.Module", "torch.nn.Sequential",
        "torch.nn.ModuleList", "torch.nn.ModuleDict",
        "pytorch_lightning.LightningModule", "pytorch_lightning.core.LightningModule",
        "lightning.LightningModule", "lightning.pytorch.LightningModule",
        "lightning.pytorch.core.LightningModule",
        "transformers.PreTrainedModel", "transformers.modeling_utils.PreTrainedModel",
        "diffusers.ModelMixin", "diffusers.models.modeling_utils.ModelMixin",
        "timm.models.VisionTransformer",
    }
)
# Functions outside the project that return a module.
MODULE_FACTORIES = frozenset(
    {"timm.create_model", "torch.hub.load", "torchvision.models.get_model"}
)
# Methods that return the module they are called on.
MODULE_RETURNING_METHODS = frozenset(
    {"bfloat16", "cpu", "cuda", "double", "eval", "float", "half", "requires_grad_", "to",
     "train"}
)
# Words in a name that say "this holds training state, not weights": such receivers are
# never given `strict` (loops, trackers, callbacks, loaders, buffers, optimizers, ...).
NOT_MODULE_WORDS = frozenset(
    {
        "aggregator", "buffer", "callback", "counter", "env", "loader", "logger", "loop",
        "lr", "normaliser", "normalizer", "opt", "optim", "optimiser", "optimizer",
        "progress", "rms", "sampler", "sched", "scaler", "scheduler", "tokenizer",
        "tracker", "trainer", "storage", "writer", "collector", "processor", "pipeline",
        "updater", "ema", "algorithm", "algo", "meter", "metric", "state",
    }
)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
MESSAGE = "pass strict=True to make the checkpoint contract explicit"
# What the reviewer of an unsafe fix must check: passing `strict` elsewhere is a TypeError.
UNKNOWN_RECEIVER = "receiver's class unknown: make sure its load_state_dict takes strict"
STRICTLESS_IN_REACH = ("pass strict=True if the receiver's load_state_dict takes it: its "
                       "class is unknown, and {} (defined or imported here) has a "
                       "load_state_dict without strict")


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError("strict-load-state-dict: explicit-default must be true or false")
    return value


class StrictLoadStateDict(Codemod):
    """Report checkpoint loads that ignore their keys; optionally write `strict=True` out.

    ## What it does
    `strict=True` is what `nn.Module.load_state_dict` does when not told, so by default
    nothing is added where the receiver's `load_state_dict` already defaults to it (a
    module, a LightningModule, a subclass that does not override it, a receiver of
    unknown class): it would change nothing. Reported: a `strict=False` whose returned
    keys are thrown away, and a function taking its own `strict` that does not pass it
    on. With the option `explicit-default = true` it also rewrites
    `module.load_state_dict(state_dict)` into
    `module.load_state_dict(state_dict, strict=True)` (a review policy), as below.

    ## Why
    A checkpoint whose keys do not match the model is a bug: a renamed layer, a wrapper
    prefix (`module.`, `_orig_mod.`), an architecture change. `strict=True` makes the
    contract visible at the call site, so nobody "fixes" a failing resume by quietly
    switching to `strict=False`, and a subclass that overrides `load_state_dict` with a
    lenient default cannot weaken it. A `strict=False` whose result is thrown away is
    reported: the missing and unexpected keys it returns should be checked.

    ## Example
    ```python
    class Agent:
        def __init__(self, obs_dim, act_dim):
            self.policy = PolicyNet(obs_dim, act_dim)   # PolicyNet(nn.Module), any module
            self.optimizer = torch.optim.Adam(self.policy.parameters())

        def load(self, ckpt):
            self.policy.load_state_dict(ckpt["policy"])
            self.optimizer.load_state_dict(ckpt["optimizer"])
    ```
    becomes
    ```python
            self.policy.load_state_dict(ckpt["policy"], strict=True)
            self.optimizer.load_state_dict(ckpt["optimizer"])
    ```

    ## Fix safety
    Only `torch.nn.Module` takes `strict`; optimizers, LR schedulers, `GradScaler`, replay
    buffers, EMA helpers and most classes of your own do not, and passing it there is a
    `TypeError` on every resume. So the receiver's class is looked up across the whole
    repository: from an annotation, `self.x = Foo(...)` in the class (or a base class in
    another module), the assignment of a local name, the return annotation of a function,
    method or `@property` (`policy = self.build_policy()` with `-> Policy`; a type alias
    of a union; without one, what its `return` statements return), the attributes of
    other objects through their class's methods (`self.agent.actor`; one class it may
    hold whose `load_state_dict` takes no `strict` is enough to leave the call alone),
    `isinstance` checks around the call, imports and re-exports, and the class hierarchy
    back to `nn.Module`. An assignment of `None` (`net = None`, then `net = Net()`) says
    nothing: `None` has no `load_state_dict` to break.

    The fix is **safe** when the receiver is known to be an `nn.Module` (a subclass of
    it, `nn.Linear(...)`, `timm.create_model(...)`, `self` in a module class). It is
    **never offered** when the receiver's class defines a `load_state_dict` that takes no
    `strict`, when it is an optimizer, scheduler or scaler, when the class has no
    `load_state_dict` of its own and no base that could provide one, or when its name
    says it holds training state (loops, trackers, callbacks, loaders, samplers, buffers,
    updaters, EMA helpers, ...), or when it is a loop variable over anything but a
    literal list or tuple (or an `nn.ModuleList`) of receivers: such a container can hold
    anything; nor in the `except TypeError:` fallback after a call that passed `strict`
    (the fallback exists for receivers without it); nor when it is an attribute picked
    by a name computed at run time (`getattr(self, name)`, directly or returned by a
    method such as `self._get_module(name)`): it may be an optimizer as well as a
    module. A load of state held in memory is left alone, its keys match by
    construction: a live `x.state_dict()` (a target network synchronised with its
    online twin) or a copy of one (`copy.deepcopy(model.state_dict())`, `{k: v.clone()
    for k, v in sd.items()}`, a local or a `self.<attribute>` only ever assigned such a
    copy, or `None`, whose keys are never set or removed: a model rolled back to its best
    weights). A receiver made by calling a class
    taken out of a container (`Encoder = encoders[name]["encoder"]; Encoder()`) is only
    reported when a class defined in the module, or in a project module it imports, has
    a `load_state_dict` without `strict`. Everything else is **unsafe**, and says what
    to check ("receiver's class unknown: make sure its load_state_dict takes strict"): a
    name alone (`model`, `policy_net`) never makes the change safe. Calls that already
    pass `strict` or pass `*args`/`**kwargs` are left alone; inside a function that
    takes a `strict` parameter of its own, the call is reported instead: that parameter
    should be passed on.

    Where `, strict=True` would push a line that fit the project's line length (ruff's
    or black's `line-length`, else 88) past it, the call's arguments go on a line of
    their own, as black lays out a call that is too long; a line with a pragma comment
    (`# type: ignore`) stays one line.

    Test code is left alone: `strict=True` is already the default there, and the change
    would only add review noise.
    """

    name = "strict-load-state-dict"
    summary = "Pass strict=True to nn.Module.load_state_dict so checkpoint mismatches raise."
    triggers = (b"load_state_dict",)
    fix_safety = "safe, unsafe"
    family = "checkpoints"
    options = (
        Option("explicit-default", False, "Write strict=True where it is already the default "
               "(nn.Module's load_state_dict): a review policy, it changes nothing at run "
               "time. False: only strict=False and ignored strict parameters are reported.",
               check=_flag),
    )

    @classmethod
    def skips_path(cls, path: Path) -> bool:
        return is_test_path(path)  # strict=True is the default: nothing to gain there

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {call.lineno for call in _load_state_dict_calls(tree)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        receivers = Receivers(file)
        model = file.semantic
        strictless: list[str] | None = None  # read once, for the first unknown receiver
        explicit = bool(file.option("explicit-default", cls))
        for call in _load_state_dict_calls(file.tree):
            if not call.args and not call.keywords:
                continue
            if any(isinstance(a, ast.Starred) for a in call.args) or any(
                    k.arg is None for k in call.keywords):
                continue
            strict = _strict_argument(call)
            if strict is not None:
                if (isinstance(strict, ast.Constant) and strict.value is False
                        and isinstance(model.parent(call), ast.Expr)):
                    yield Finding(call, "strict=False ignores missing and unexpected keys "
                                  "silently; check the keys load_state_dict returns",
                                  Safety.MANUAL)
                continue
            if _copies_live_state(receivers, call):
                continue  # `target.load_state_dict(online.state_dict())`: not a checkpoint
            if _in_type_error_fallback(model, call):
                continue  # `except TypeError:` after a call with strict: for receivers without it
            receiver = call.func.value  # type: ignore[attr-defined]
            kind = receivers.kind(receiver, call)
            if kind is Kind.OTHER:
                continue  # no `strict` to pass (an optimizer), or one that defaults otherwise
            function = model.enclosing_function(call)
            if function is not None and "strict" in _parameter_names(function):
                yield Finding(call, "this function takes `strict` but does not pass it on: "
                              "pass strict=strict", Safety.MANUAL)
                continue
            if not explicit:
                continue  # strict=True is what Module.load_state_dict does when not told
            if kind is Kind.UNKNOWN and _made_by_class_variable(model, receiver):
                if strictless is None:
                    strictless = _strictless_classes_in_reach(file)
                if strictless:
                    yield Finding(call, STRICTLESS_IN_REACH.format(strictless[0]),
                                  Safety.MANUAL)
                    continue
            fix = (_add_strict(file, call),)
            if kind is Kind.MODULE:
                yield Finding(call, MESSAGE, Safety.SAFE, fix)
            else:
                yield Finding(call, f"{MESSAGE} ({UNKNOWN_RECEIVER})", Safety.UNSAFE, fix)


def _add_strict(file: FileContext, call: ast.Call) -> AddKeyword | ReplaceNode:
    """`strict=True` added at the end of the call. Where that would make a line that fit
    the project's line length (ruff's or black's, else 88) too long, the arguments go on
    a line of their own, as black lays out a call that is too long."""
    added = AddKeyword(call, "strict", "True")
    if call.lineno != call.end_lineno:
        return added  # laid out over lines already: the keyword joins that layout
    line = file.lines[call.lineno - 1].rstrip("\r\n")
    limit = line_length(file)
    if len(line) + len(", strict=True") <= limit or len(line) > limit:
        return added
    if PRAGMA.search(line) or any(isinstance(a, ast.JoinedStr)
                                   for a in file.semantic.ancestors(call)):
        return added  # a pragma applies to its line; no line breaks inside an f-string
    indent = line[: len(line) - len(line.lstrip(" \t"))]
    arguments = [file.source(a) for a in [*call.args, *call.keywords]] + ["strict=True"]
    if any("\n" in argument for argument in arguments):
        return added
    receiver = file.source(call.func.value)  # type: ignore[attr-defined]
    # New lines are written relative to the indentation of the statement's block (the
    # editor indents them by it), from where the call's line is indented.
    statement = file.semantic.statement(call)
    first = file.lines[statement.lineno - 1] if statement is not None else line
    block = first[: len(first) - len(first.lstrip(" \t"))]
    if not indent.startswith(block):
        return added
    relative = indent[len(block):]
    # The arguments always fit on a line of their own (one unit deeper, without the
    # receiver before them): black's right-hand split.
    body = relative + indent_unit(file) + ", ".join(arguments)
    return ReplaceNode(call, f"{receiver}.load_state_dict(\n{body}\n{relative})")


def _copies_live_state(receivers: Receivers, call: ast.Call) -> bool:
    """Whether the state loaded is a live object's, `x.state_dict()`, or a copy of one
    made in memory: a target network synchronised with its online twin, or a module
    rolled back to the best weights it had (`best = copy.deepcopy(model.state_dict())`,
    also kept on `self` by one method and loaded by another). Not a checkpoint read from
    disk: its keys match by construction."""
    return bool(call.args) and _is_live_state(receivers, call.args[0], 3)


# Calls that make a new mapping with the same keys as their only argument.
_SAME_KEYS = ("copy.deepcopy", "copy.copy", "collections.OrderedDict", "builtins.dict")
# Methods that can change a mapping's keys in place.
_KEY_CHANGING = frozenset({"update", "pop", "popitem", "setdefault", "clear", "__setitem__",
                           "__delitem__"})


def _is_live_state(receivers: Receivers, state: ast.expr, depth: int) -> bool:
    """Whether `state` is a `state_dict()` of a live object or an in-memory copy of one
    with the same keys: `copy.deepcopy(...)`, `{k: v.clone() for k, v in sd.items()}`, a
    local or a `self.<attribute>` that is only ever assigned such a copy (or `None`) and
    never has keys set or removed."""
    model = receivers.model
    if isinstance(state, ast.Call):
        if (model.qualified_name(state.func) in _SAME_KEYS and len(state.args) == 1
                and not state.keywords):
            return _is_live_state(receivers, state.args[0], depth)
        return (isinstance(state.func, ast.Attribute) and state.func.attr == "state_dict"
                and not state.args and not state.keywords)
    if isinstance(state, ast.DictComp):
        source = _same_keys_source(state)
        return source is not None and _is_live_state(receivers, source, depth)
    if depth <= 0:
        return False
    if isinstance(state, ast.Name):
        bindings = [b for b in model.bindings(state) if not _binds_none(b)]
        if not bindings or any(
                b.kind is not BindingKind.ASSIGNMENT or b.value is None or b.augmented
                for b in bindings):
            return False
        if any(_changes_keys(model, reference) for binding in bindings
               for reference in model.references(binding)):
            return False
        return all(_is_live_state(receivers, b.value, depth - 1)  # type: ignore[arg-type]
                   for b in bindings)
    if (isinstance(state, ast.Attribute) and isinstance(state.value, ast.Name)
            and receivers._is_self(state.value)):
        cls = model.enclosing_class(state)
        if cls is None:
            return False
        values = [v for v in receivers._self_assignments(cls, state.attr) if not _is_none(v)]
        if not values or _keys_changed_in_class(cls, state.attr):
            return False
        return all(_is_live_state(receivers, value, depth - 1) for value in values)
    return False


def _same_keys_source(comprehension: ast.DictComp) -> ast.expr | None:
    """`sd` in `{k: v.clone() for k, v in sd.items()}` or `{k: f(k) for k in sd}`: the
    mapping whose keys the comprehension keeps, all of them."""
    if len(comprehension.generators) != 1:
        return None
    generator = comprehension.generators[0]
    if generator.ifs or generator.is_async or not isinstance(comprehension.key, ast.Name):
        return None
    key = comprehension.key.id
    iterated = generator.iter
    method = (iterated.func.attr if isinstance(iterated, ast.Call) and not iterated.args
              and isinstance(iterated.func, ast.Attribute) else None)
    target = generator.target
    if method == "items" and isinstance(target, ast.Tuple) and len(target.elts) == 2 and \
            isinstance(target.elts[0], ast.Name) and target.elts[0].id == key:
        return iterated.func.value  # type: ignore[union-attr]
    if isinstance(target, ast.Name) and target.id == key:
        if method == "keys":
            return iterated.func.value  # type: ignore[union-attr]
        if method is None and not isinstance(iterated, ast.Call):
            return iterated
    return None


def _changes_keys(model: SemanticModel, name: ast.expr) -> bool:
    """Whether this read of a mapping sets or removes keys: `sd[k] = v`, `del sd[k]`,
    `sd.update(...)`, `sd.pop(k)`."""
    parent = model.parent(name)
    if isinstance(parent, ast.Subscript) and parent.value is name:
        return not isinstance(parent.ctx, ast.Load)
    return isinstance(parent, ast.Attribute) and parent.attr in _KEY_CHANGING


def _keys_changed_in_class(cls: ast.ClassDef, attribute: str) -> bool:
    """Whether a method of `cls` sets or removes keys of `self.<attribute>`."""
    for node in ast.walk(cls):
        stored = isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load)
        if not (stored or (isinstance(node, ast.Attribute) and node.attr in _KEY_CHANGING)):
            continue
        holder = node.value  # type: ignore[attr-defined]
        if (isinstance(holder, ast.Attribute) and holder.attr == attribute
                and isinstance(holder.value, ast.Name)):
            return True
    return False


def _in_type_error_fallback(model: SemanticModel, call: ast.Call) -> bool:
    """Whether `call` is in an `except TypeError` handler: the fallback of code that first
    tried `load_state_dict(..., strict=...)`, for receivers whose method takes no strict."""
    for ancestor in model.ancestors(call):
        if isinstance(ancestor, ast.ExceptHandler) and ancestor.type is not None:
            caught = (ancestor.type.elts if isinstance(ancestor.type, ast.Tuple)
                      else [ancestor.type])
            if any(model.qualified_name(c) in ("TypeError", "builtins.TypeError")
                   or (isinstance(c, ast.Name) and c.id == "TypeError") for c in caught):
                return True
        if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
    return False


def _made_by_class_variable(model: SemanticModel, receiver: ast.expr) -> bool:
    """Whether `receiver` is a local made by calling a class taken out of a container:
    `Encoder = encoders[name]["encoder"]; encoder = Encoder(...)` (or `encoders[name](...)`
    directly): which class it is depends on data, so any class of the registry may be it."""
    if not isinstance(receiver, ast.Name):
        return False
    binding = model.binding(receiver)
    value = binding.value if binding is not None else None
    if not isinstance(value, ast.Call):
        return False
    callee = value.func
    if isinstance(callee, ast.Subscript):
        return True
    if isinstance(callee, ast.Name):
        made_by = model.binding(callee)
        return made_by is not None and isinstance(made_by.value, ast.Subscript)
    return False


def _strictless_classes_in_reach(file: FileContext) -> list[str]:
    """The project's classes, defined in this module or in a project module it imports
    from, whose `load_state_dict` takes no `strict`: a receiver of unknown class here may
    well be one of them (`Encoder = encoders[name]["encoder"]; Encoder(...)`)."""
    project = file.project
    here = project.module(file.module.name)
    if here is None:
        return []
    modules = [here]
    seen = {here.name}
    for target in here.names.values():
        parts = target.split(".")
        for length in range(len(parts), 0, -1):
            name = ".".join(parts[:length])
            if name in seen:
                break
            facts = project.module(name)
            if facts is not None:
                seen.add(name)
                modules.append(facts)
                break
    found = []
    for facts in modules:
        for cls in facts.classes.values():
            method = cls.methods.get("load_state_dict")
            if method is not None and not method.accepts_keyword("strict"):
                found.append(cls.qualified_name)
    return sorted(found)


def _load_state_dict_calls(tree: ast.Module) -> list[ast.Call]:
    return [
        node for node in nodes_of(tree, ast.Call)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "load_state_dict"
    ]


def _strict_argument(call: ast.Call) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "strict":
            return keyword.value
    return call.args[1] if len(call.args) > 1 else None


def _parameter_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    arguments = function.args
    return {arg.arg for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}


def name_words(identifier: str) -> list[str]:
    """`target_qNets` → ["target", "q", "net"]: lower-case words, plurals made singular."""
    return [
        _singular(word.lower()) for part in identifier.split("_") for word in _WORD.findall(part)
    ]


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def says_not_a_module(identifier: str) -> bool:
    """Whether a name says it holds training state rather than weights."""
    return bool(set(name_words(identifier)) & NOT_MODULE_WORDS)


def _agree(kinds: Iterator[Kind] | list[Kind]) -> Kind:
    found = set(kinds)
    if len(found) == 1:
        return found.pop()
    if Kind.OTHER in found:
        return Kind.OTHER  # one way it is not a module: passing `strict` may break it
    return Kind.UNKNOWN


class Receivers:
    """What the receiver of a `load_state_dict` call is, from the two models."""

    def __init__(self, file: FileContext) -> None:
        self.file = file
        self.model: SemanticModel = file.semantic
        self.project = file.project
        # `self.<attribute>` of a class being looked up: `self.module = self.module.to(d)`
        # (or two attributes assigned from each other) must not be followed round again.
        self._attributes_in_progress: set[tuple[int, str]] = set()

    # -- expressions ---------------------------------------------------------------------

    def kind(self, receiver: ast.expr, at: ast.AST, depth: int = 5) -> Kind:
        kind = self._kind(receiver, at, depth)
        if kind is Kind.UNKNOWN and depth >= 0:
            # what the code says its class is: `self.agent.actor`, `self.build_policy()`
            by_class = self.class_kind(self.class_of(receiver, depth))
            if by_class is Kind.UNKNOWN and isinstance(receiver, ast.Attribute):
                by_class = self._member_kind(receiver, depth)
            if by_class is not Kind.UNKNOWN:
                return by_class
        return kind

    def _member_kind(self, receiver: ast.Attribute, depth: int) -> Kind:
        """`trainer._backend`, assigned `None` in one method and `RayBackend(...)` in
        another: what the classes it may be agree on (one class whose `load_state_dict`
        takes no `strict` is enough to leave the call alone)."""
        owner = self.class_of(receiver.value, depth - 1)
        for name in [owner, *self.project.ancestors(owner)] if owner is not None else ():
            facts = self.project.class_facts(name) if name is not None else None
            if facts is not None and receiver.attr in facts.attributes:
                return _agree([self.class_kind(self._callee_class(built))
                               for built in facts.attributes[receiver.attr]])
        return Kind.UNKNOWN

    def _kind(self, receiver: ast.expr, at: ast.AST, depth: int) -> Kind:
        narrowed = self._narrowed(receiver, at)
        if narrowed is not None:
            return narrowed
        if isinstance(receiver, ast.Call) and self.model.qualified_name(
                receiver.func) == "builtins.super":
            return self._self_kind(at)
        if isinstance(receiver, ast.Name):
            return self._name_kind(receiver, at, depth)
        if isinstance(receiver, ast.Attribute):
            base = receiver.value
            if isinstance(base, ast.Name) and self._is_self(base):
                kind = self._attribute_kind(at, receiver.attr, depth)
                if kind is None:  # a property of this class: what it returns
                    kind = self._method_result_kind(receiver, depth)
                if kind is Kind.UNKNOWN and self.class_of(receiver, depth) is None:
                    # `self.optimizer = optimizer_cls(params)`: a class passed in, so the
                    # name is all there is to go on
                    return self._by_name(receiver.attr)
                if kind is not None:  # what the class says beats what the name says
                    return kind
            return self._by_name(receiver.attr)
        if isinstance(receiver, ast.Subscript):
            key = receiver.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                return self._by_name(key.value)  # ckpt["obs_normalizer"]
            container = receiver.value
            named = container.attr if isinstance(container, ast.Attribute) else (
                container.id if isinstance(container, ast.Name) else "")
            if says_not_a_module(named):
                return Kind.OTHER  # self.optimizers[name], schedulers[i]: what they hold
            return self.kind(receiver.value, at, depth)  # critics[0] is one of the critics
        if isinstance(receiver, ast.Call):
            return self.value_kind(receiver, at, depth)
        return Kind.UNKNOWN

    def _by_name(self, identifier: str) -> Kind:
        # A name can say "not a module" (never touched), never "a module" (not safe).
        return Kind.OTHER if says_not_a_module(identifier) else Kind.UNKNOWN

    def _is_self(self, name: ast.Name) -> bool:
        function = self.model.enclosing_function(name)
        if function is None or self.model.enclosing_class(function) is None:
            return False
        params = [*function.args.posonlyargs, *function.args.args]
        return bool(params) and params[0].arg == name.id and not any(
            isinstance(d, ast.Name) and d.id == "staticmethod" for d in function.decorator_list)

    def _narrowed(self, receiver: ast.expr, at: ast.AST) -> Kind | None:
        """What an enclosing `if isinstance(receiver, T):` says the receiver is."""
        text = ast.dump(receiver)
        child = at
        for ancestor in self.model.ancestors(at):
            if isinstance(ancestor, ast.If) and any(child is s for s in ancestor.body):
                test = ancestor.test
                if (isinstance(test, ast.Call) and len(test.args) == 2
                        and self.model.qualified_name(test.func) == "builtins.isinstance"
                        and ast.dump(test.args[0]) == text):
                    return self._types_kind(test.args[1])
            child = ancestor
        return None

    def _types_kind(self, types: ast.expr) -> Kind:
        if isinstance(types, ast.Tuple):
            return _agree([self._types_kind(element) for element in types.elts])
        return self.class_kind(self.model.qualified_name(types))

    # -- names ---------------------------------------------------------------------------

    def _name_kind(self, name: ast.Name, at: ast.AST, depth: int) -> Kind:
        if self._is_self(name):
            return self._self_kind(at)
        bindings = self.model.bindings(name)
        if not bindings:
            return self._by_name(name.id)
        # `net = None`, then `net = Net()`: None has no load_state_dict to break
        bindings = [binding for binding in bindings if not _binds_none(binding)] or bindings
        kinds = [self._binding_kind(binding, at, depth) for binding in bindings]
        kind = _agree(kinds)
        if kind is Kind.UNKNOWN and Kind.MODULE not in kinds:
            return self._by_name(name.id)
        return kind

    def _binding_kind(self, binding: Binding, at: ast.AST, depth: int) -> Kind:
        if binding.annotation is not None:
            return self.annotation_kind(binding.annotation)
        if binding.kind in (BindingKind.LOOP, BindingKind.COMPREHENSION):
            return self._loop_kind(binding, at, depth)
        if (binding.kind is BindingKind.ASSIGNMENT and binding.value is not None
                and not binding.augmented and depth > 0):
            return self.value_kind(binding.value, at, depth - 1)
        return Kind.UNKNOWN

    def _loop_kind(self, binding: Binding, at: ast.AST, depth: int) -> Kind:
        """`for net in (self.actor, self.critic)`: what every element is. A loop over
        any other container is never given `strict`: its elements could be anything."""
        loop = next((
            node for node in ast.walk(binding.statement) if binding.statement is not None
            and isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension))
            and node.target is binding.node
        ), None) if binding.statement is not None else None
        if loop is None:
            return Kind.OTHER  # `for name, net in ...`: unpacked from something unknown
        container = loop.iter
        if isinstance(container, (ast.List, ast.Tuple, ast.Set)) and container.elts and not any(
                isinstance(element, ast.Starred) for element in container.elts):
            if depth <= 0:
                return Kind.UNKNOWN
            return _agree([self.kind(element, at, depth - 1) for element in container.elts])
        if self.class_of(container, depth - 1) in ("torch.nn.ModuleList", "torch.nn.Sequential"):
            return Kind.MODULE
        return Kind.OTHER

    def _method_result_kind(self, func: ast.expr, depth: int) -> Kind | None:
        """What `self.<method>` (a method or a property of the class being read) returns:
        its return annotation in full (a union, an alias of one), else what its `return`
        statements return; None when the class defines no such method."""
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and self._is_self(func.value)):
            return None
        cls = self.model.enclosing_class(func)
        method = next((
            statement for statement in (cls.body if cls is not None else ())
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
            and statement.name == func.attr
        ), None)
        if method is None:
            return None
        if method.returns is not None:
            return self.annotation_kind(method.returns)
        returned = [node.value for node in _own_nodes(method)
                    if isinstance(node, ast.Return) and node.value is not None]
        if not returned or depth <= 0:
            return Kind.UNKNOWN
        # one way it is not a module is enough to leave the call alone
        return _agree([self.value_kind(value, value, depth - 1) for value in returned])

    def annotation_kind(self, annotation: ast.expr, depth: int = 3) -> Kind:
        if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
            sides = [side for side in (annotation.left, annotation.right)
                     if not (isinstance(side, ast.Constant) and side.value is None)]
            return _agree([self.annotation_kind(side, depth) for side in sides])
        if isinstance(annotation, ast.Name) and depth > 0:
            # `OptimizerLike = Optimizer | CPUOffloadOptimizer`: an alias of this module
            bindings = self.model.bindings(annotation)
            if (len(bindings) == 1 and bindings[0].kind is BindingKind.ASSIGNMENT
                    and bindings[0].value is not None and not bindings[0].augmented
                    and isinstance(bindings[0].value, (ast.BinOp, ast.Subscript))):
                return self.annotation_kind(bindings[0].value, depth - 1)
        if isinstance(annotation, ast.Subscript) and self.model.qualified_name(
                annotation.value) in ("typing.Optional", "typing_extensions.Optional"):
            return self.annotation_kind(annotation.slice)
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            try:  # a string annotation: "nn.Module"
                parsed = ast.parse(annotation.value, mode="eval").body
            except SyntaxError:
                return Kind.UNKNOWN
            # Its names are read in the annotation's scope: qualify them through an
            # attribute chain the model knows, by copying the location.
            return self._string_annotation_kind(parsed, annotation)
        return self.class_kind(self.model.qualified_name(annotation))

    def _string_annotation_kind(self, parsed: ast.expr, annotation: ast.expr) -> Kind:
        parts: list[str] = []
        node = parsed
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return Kind.UNKNOWN
        scope = self.model.scope_of(annotation)
        bindings = self.model.bindings_of(node.id, scope)
        base = bindings[-1].qualified_name if bindings else None
        if base is None:
            return Kind.UNKNOWN
        return self.class_kind(".".join([base, *reversed(parts)]))

    def value_kind(self, value: ast.expr, at: ast.AST, depth: int) -> Kind:
        if not isinstance(value, ast.Call):
            if isinstance(value, (ast.Name, ast.Attribute, ast.Subscript)) and depth > 0:
                return self.kind(value, at, depth - 1)
            return Kind.UNKNOWN
        func = value.func
        result = self._method_result_kind(func, depth)
        if result is not None:  # `self._single_optimizer()`: what it returns
            return result
        if isinstance(func, ast.Attribute) and func.attr in MODULE_RETURNING_METHODS:
            inner = self.value_kind(func.value, at, depth) if isinstance(
                func.value, ast.Call) else self.kind(func.value, at, depth - 1)
            if inner is not Kind.UNKNOWN:
                return inner
        qualified = self.model.qualified_name(func)
        if qualified == "builtins.getattr" and len(value.args) >= 2 and not (
                isinstance(value.args[1], ast.Constant)):
            # `getattr(self, name)`: an attribute picked at run time (skorch's
            # `_get_module(attr)` over `module_`, `optimizer_`, ...): it may be any of
            # them, optimizers included.
            return Kind.OTHER
        if qualified in ("copy.deepcopy", "copy.copy"):
            return self.kind(value.args[0], at, depth - 1) if value.args and depth > 0 \
                else Kind.UNKNOWN
        if qualified in MODULE_FACTORIES or _is_torchvision_model_builder(qualified):
            return Kind.MODULE
        if qualified is not None and qualified.endswith(".from_pretrained"):
            owner = qualified.rsplit(".", 1)[0]
            if owner.rsplit(".", 1)[-1].startswith(("AutoModel", "T5", "Bert", "GPT")) or \
                    self.class_kind(owner) is Kind.MODULE:
                return Kind.MODULE
            return Kind.UNKNOWN
        kind = self.class_kind(qualified)
        if kind is Kind.UNKNOWN and depth >= 0:
            return self.class_kind(self._call_class(value, depth))
        return kind

    # -- the class of an expression ------------------------------------------------------

    def class_of(self, expr: ast.expr, depth: int) -> str | None:
        """The qualified name of the class of `expr`'s value where the code says it: an
        annotation, a constructor call, a function's or method's return annotation, a
        `@property`'s, an attribute assigned in a class's methods (`self.agent.actor`)."""
        if depth < 0:
            return None
        if isinstance(expr, ast.Name):
            if self._is_self(expr):
                cls = self.model.enclosing_class(expr)
                return self._class_name(cls) if cls is not None else None
            names = {self._binding_class(binding, depth) for binding in self.model.bindings(expr)}
            return names.pop() if len(names) == 1 else None
        if isinstance(expr, ast.Attribute):
            if isinstance(expr.value, ast.Name) and self._is_self(expr.value):
                # `self.trainer = trainer` with `trainer: Trainer`, in this class
                cls = self.model.enclosing_class(expr)
                values = self._self_assignments(cls, expr.attr) if cls is not None else []
                found = {self.class_of(value, depth - 1) for value in values}
                if len(found) == 1 and None not in found:
                    return found.pop()
            owner = self.class_of(expr.value, depth - 1)
            return self._member_class(owner, expr.attr, depth) if owner is not None else None
        if isinstance(expr, ast.Call):
            return self._call_class(expr, depth)
        return None

    def _binding_class(self, binding: Binding, depth: int) -> str | None:
        if binding.annotation is not None:
            return self._named_class(self.model.qualified_name(binding.annotation))
        if (binding.kind is BindingKind.ASSIGNMENT and binding.value is not None
                and not binding.augmented):
            return self.class_of(binding.value, depth - 1)
        return None

    def _call_class(self, call: ast.Call, depth: int) -> str | None:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in MODULE_RETURNING_METHODS:
            moved = self.class_of(func.value, depth - 1)
            if moved is not None:
                return moved
        qualified = self.model.qualified_name(func)
        if qualified is not None:
            return self._callee_class(qualified)
        if isinstance(func, ast.Attribute):  # `self.build_policy()`, `agent.make_net()`
            owner = self.class_of(func.value, depth - 1)
            found = self.project.find_method(owner, func.attr) if owner is not None else None
            if found is not None:
                return self._named_class(found[1].returns)
        return None

    def _member_class(self, owner: str, attribute: str, depth: int) -> str | None:
        """What `<an owner>.<attribute>` is: the attribute's assignments in the owner's
        methods (or a base's), else the return annotation of a property of that name."""
        for name in [owner, *self.project.ancestors(owner)]:
            facts = self.project.class_facts(name) if name is not None else None
            if facts is None:
                continue
            if attribute in facts.attributes:
                found = {self._callee_class(built) for built in facts.attributes[attribute]}
                return found.pop() if len(found) == 1 else None
            if attribute in facts.methods:  # a property: nothing else has load_state_dict
                return self._named_class(facts.methods[attribute].returns)
        return None

    def _callee_class(self, qualified: str | None) -> str | None:
        """The class `qualified(...)` makes: the class itself, or what the project's
        function of that name is annotated to return."""
        found = self.project.resolve(qualified)
        if isinstance(found, Signature):
            return self._named_class(found.returns)
        return self._named_class(qualified)

    def _named_class(self, qualified: str | None) -> str | None:
        """A class by name: a project class by where it is defined; a name from outside
        the project if it is spelled like a class (`torch.optim.Adam`)."""
        if qualified is None:
            return None
        facts = self.project.class_facts(qualified)
        if facts is not None:
            return facts.qualified_name
        if self.project.resolve(qualified) is not None:
            return None  # a function, a constant, a module
        return qualified if qualified.rsplit(".", 1)[-1][:1].isupper() else None

    # -- classes -------------------------------------------------------------------------

    def class_kind(self, qualified: str | None) -> Kind:
        """Whether instances of the class named `qualified` are modules."""
        if qualified is None:
            return Kind.UNKNOWN
        known = _external_kind(qualified)
        if known is not None:
            return known
        facts = self.project.class_facts(qualified)
        if facts is None:
            return self._by_name(qualified.rsplit(".", 1)[-1])
        found = self.project.find_method(facts.qualified_name, "load_state_dict")
        ancestors = list(self.project.ancestors(facts.qualified_name))
        external = [_external_kind(a) if a is not None else None for a in ancestors
                    if a is None or self.project.class_facts(a) is None]
        if found is not None:
            _, signature = found
            if not signature.accepts_keyword("strict"):
                return Kind.OTHER  # passing strict= is a TypeError
            strict = signature.parameter("strict")
            if strict is not None and strict.has_default and strict.literal_default != "True":
                # `strict=None` / `False` by default: the method does something else when
                # not told, and strict=True would change what a plain call does.
                return Kind.OTHER
        if Kind.MODULE in external:
            return Kind.MODULE
        if Kind.OTHER in external:
            return Kind.OTHER
        if found is None and not any(
                a is not None and a != "builtins.object" and self.project.class_facts(a) is None
                for a in ancestors) and None not in ancestors:
            return Kind.OTHER  # no load_state_dict anywhere in a hierarchy we fully know
        if says_not_a_module(facts.qualified_name.rsplit(".", 1)[-1]):
            return Kind.OTHER
        return Kind.UNKNOWN

    def _self_kind(self, at: ast.AST) -> Kind:
        cls = self.model.enclosing_class(at)
        if cls is None:
            return Kind.UNKNOWN
        return self.class_kind(self._class_name(cls))

    def _class_name(self, cls: ast.ClassDef) -> str | None:
        binding = next((b for bindings in [self.model.scope_of(cls).local(cls.name)]
                        for b in bindings if b.node is cls), None)
        return binding.qualified_name if binding is not None else None

    def _attribute_kind(self, at: ast.AST, attribute: str, depth: int) -> Kind | None:
        """What `self.<attribute>` is: its assignments in the class, else in its bases;
        None when neither assigns it."""
        cls = self.model.enclosing_class(at)
        if cls is None:
            return None
        key = (id(cls), attribute)
        if key in self._attributes_in_progress or depth < 0:
            return None  # a cycle: what the other assignments say decides
        self._attributes_in_progress.add(key)
        try:
            return self._class_attribute_kind(cls, attribute, depth)
        finally:
            self._attributes_in_progress.discard(key)

    def _class_attribute_kind(self, cls: ast.ClassDef, attribute: str, depth: int
                              ) -> Kind | None:
        values = self._self_assignments(cls, attribute)
        # `self.module = self.module.to(device)` keeps what the other assignments made it
        values = [value for value in values if not _same_attribute_moved(value, attribute)
                  and not _is_none(value)]
        kinds = [self._local_attribute_kind(value, depth) for value in values]
        kinds += [self.annotation_kind(a) for a in self._class_annotations(cls, attribute)]
        if not kinds:
            qualified = self._class_name(cls)
            if qualified is not None:
                for ancestor in self.project.ancestors(qualified):
                    facts = self.project.class_facts(ancestor)
                    if facts is not None and attribute in facts.attributes:
                        kinds = [self.class_kind(name) for name in facts.attributes[attribute]]
                        break
        if not kinds:
            return None
        return _agree(kinds)

    def _local_attribute_kind(self, value: ast.expr, depth: int) -> Kind:
        if isinstance(value, ast.Call):
            return self.value_kind(value, value, depth)
        if depth > 0:
            return self.kind(value, value, depth - 1)
        return Kind.UNKNOWN

    def _self_assignments(self, cls: ast.ClassDef, attribute: str) -> list[ast.expr]:
        values: list[ast.expr] = []
        for statement in cls.body:
            if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            params = [*statement.args.posonlyargs, *statement.args.args]
            if not params:
                continue
            receiver = params[0].arg
            for node in ast.walk(statement):
                targets: list[ast.expr] = []
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, ast.AnnAssign) and node.value is not None:
                    targets = [node.target]
                for target in targets:
                    if (isinstance(target, ast.Attribute) and target.attr == attribute
                            and isinstance(target.value, ast.Name)
                            and target.value.id == receiver):
                        values.append(node.value)  # type: ignore[union-attr,arg-type]
        return values

    @staticmethod
    def _class_annotations(cls: ast.ClassDef, attribute: str) -> list[ast.expr]:
        return [
            statement.annotation for statement in cls.body
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
            and statement.target.id == attribute
        ]


def _is_none(value: ast.expr) -> bool:
    return isinstance(value, ast.Constant) and value.value is None


def _binds_none(binding: Binding) -> bool:
    return (binding.kind is BindingKind.ASSIGNMENT and binding.value is not None
            and binding.annotation is None and _is_none(binding.value))


def _own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of a function's body, without those of functions and classes in it."""
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                 ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))


def _same_attribute_moved(value: ast.expr, attribute: str) -> bool:
    """`self.<attribute>.to(device)`, `.cuda().eval()`: the same object, moved."""
    while (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
           and value.func.attr in MODULE_RETURNING_METHODS):
        value = value.func.value
        if isinstance(value, ast.Attribute) and value.attr == attribute and isinstance(
                value.value, ast.Name):
            return True
    return False


def _is_torchvision_model_builder(qualified: str | None) -> bool:
    """`torchvision.models.resnet18`, `torchvision.models.detection.fasterrcnn_resnet50_fpn`:
    every lower-case callable of torchvision.models builds a module."""
    if qualified is None or not qualified.startswith("torchvision.models."):
        return False
    last = qualified.rsplit(".", 1)[-1]
    return last[:1].islower() and not last.startswith(("get_weight", "list_", "_"))


def _external_kind(qualified: str) -> Kind | None:
    """What torch and well-known libraries' classes are; None for other names."""
    if qualified in MODULE_CLASSES:
        return Kind.MODULE
    parts = qualified.split(".")
    last = parts[-1]
    if is_torch_module_class(qualified):
        return Kind.MODULE  # nn.Linear, torch.nn.modules.conv.Conv2d, ...
    if parts[:2] == ["torch", "optim"] or "lr_scheduler" in parts or last in (
            "GradScaler", "ShardedGradScaler") or parts[:1] == ["torchmetrics"]:
        return Kind.OTHER
    if parts[:2] == ["torch", "utils"] or last.endswith(("LR", "Scheduler", "Optimizer")):
        return Kind.OTHER
    if last == "object" and parts[0] == "builtins":
        return Kind.OTHER
    return None

