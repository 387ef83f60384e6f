"""strict-load-state-dict: make `nn.Module.load_state_dict` checkpoints strict, explicitly."""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from enum import Enum

import libcst as cst
import libcst.matchers as m
from libcst.codemod import CodemodContext
from libcst.helpers import get_full_name_for_node

from torchfix.codemod import CodemodSettings, Safety, TorchfixCodemod
from torchfix.edits import append_argument, keyword
from torchfix.model.ast_index import nodes_of
from torchfix.model.ast_names import dotted


class Kind(Enum):
    MODULE = "module"  # an nn.Module: takes `strict`
    OTHER = "other"  # an optimizer, scheduler, scaler, normalizer: passing `strict` breaks it
    UNKNOWN = "unknown"


# Words in a receiver's name that say "this is a network".
MODULE_WORDS = frozenset(
    {
        "actor", "autoencoder", "backbone", "classifier", "cnn", "critic", "decoder",
        "denoiser", "detector", "discriminator", "dqn", "embedder", "encoder", "generator",
        "gru", "head", "lstm", "mlp", "model", "module", "net",
        "network", "policy", "predictor", "qnet", "regressor", "rnn", "student",
        "teacher", "transformer", "unet", "vae",
    }
)
# Words that say "this holds training state, not weights": these classes take no `strict`
# (loops, progress trackers, callbacks, data loaders, replay buffers, environments, ...).
NOT_MODULE_WORDS = frozenset(
    {
        "aggregator", "buffer", "callback", "counter", "env", "loader", "logger", "loop",
        "lr", "normaliser", "normalizer", "opt", "optim", "optimiser", "optimizer",
        "progress", "rms", "sampler", "sched", "scaler", "scheduler", "tokenizer",
        "tracker", "trainer",
    }
)
# Words that make a name too vague to trust either way (`model_ema`, `model_state`, ...).
VAGUE_WORDS = frozenset(
    {
        "accelerator", "checkpoint", "ckpt", "config", "cfg", "dict", "ema", "engine",
        "fabric", "manager", "meter", "metric", "processor", "sd", "state", "strategy",
        "wrapper",
    }
)
# Base classes (last dotted part) that make a class an nn.Module.
MODULE_BASES = frozenset(
    {"LightningModule", "Module", "ModuleDict", "ModuleList", "PreTrainedModel", "Sequential"}
)
OPTIMIZER_CLASSES = frozenset(
    {
        "ASGD", "Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "GradScaler",
        "LBFGS", "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "SGD", "SparseAdam",
    }
)
# Methods that return the module they are called on.
MODULE_RETURNING_METHODS = frozenset(
    {"bfloat16", "cpu", "cuda", "double", "eval", "float", "half", "requires_grad_", "to",
     "train"}
)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


class StrictLoadStateDict(TorchfixCodemod):
    """Pass `strict=True` to `nn.Module.load_state_dict`.

    ## What it does
    Rewrites `module.load_state_dict(state_dict)` into
    `module.load_state_dict(state_dict, strict=True)`.

    ## Why
    A checkpoint whose keys do not match the model is a bug: a renamed layer, a wrapper
    prefix (`module.`, `_orig_mod.`), an architecture change. `strict=True` makes the
    contract visible at the call site, so nobody "fixes" a failing resume by quietly
    switching to `strict=False`, and a subclass that overrides `load_state_dict` with a
    lenient default cannot weaken it. A `strict=False` whose result is thrown away is
    reported: the missing and unexpected keys it returns should be checked.

    ## Example
    ```python
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    ```
    becomes
    ```python
    model.load_state_dict(ckpt["model"], strict=True)
    optimizer.load_state_dict(ckpt["optimizer"])
    ```

    ## Fix safety
    Only `torch.nn.Module` takes `strict`; optimizers, LR schedulers, `GradScaler` and
    most user classes do not, and passing it there is a `TypeError`. The fix is **safe**
    when the receiver is known to be a module (an instance of an `nn.Module` subclass or
    constructor in the same file, a parameter annotated `nn.Module`, `self` inside an
    `nn.Module` subclass) or is clearly named as one (`model`, `net`, `policy`, `actor`,
    `critic`, `encoder`, ...). Receivers that look like optimizers, schedulers, scalers,
    normalizers, loops, progress trackers, callbacks, data loaders, samplers, replay
    buffers or trainers are never touched, nor are receivers inside `if isinstance(x, Optimizer):`
    (an enclosing `isinstance` check decides over the name), nor `self` / `super()` in a
    class that is not a module and has no base named like one (`Serializable`, `Callback`:
    their `load_state_dict` takes no `strict`), nor instances of such classes. Everything
    else is **unsafe**. Calls that already pass `strict` (by keyword or position) or pass
    `*args`/`**kwargs` are left alone. Inside a function that takes a `strict` parameter of
    its own, the call is reported instead: that parameter should be passed on.
    """

    name = "strict-load-state-dict"
    summary = "Pass strict=True to nn.Module.load_state_dict so checkpoint mismatches raise."
    triggers = (b"load_state_dict",)
    fix_safety = "safe, unsafe"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {
            node.lineno
            for node in nodes_of(tree, ast.Call)
            if isinstance(node.func, ast.Attribute)
            and node.func.attr == "load_state_dict"
        }

    def __init__(self, context: CodemodContext, settings: CodemodSettings | None = None) -> None:
        super().__init__(context, settings)
        self._evidence = _Evidence.of(self.settings.python_tree)
        self._classes: list[str] = []
        self._functions: list[cst.FunctionDef] = []
        self._path: list[str] = []  # enclosing class and function names
        self._function_depths: list[int] = []
        self._discarded: cst.BaseExpression | None = None

    # -- context tracking ----------------------------------------------------------------

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(node.name.value)
        self._path.append(node.name.value)

    def leave_ClassDef(
        self, original_node: cst.ClassDef, updated_node: cst.ClassDef
    ) -> cst.ClassDef:
        self._path.pop()
        self._classes.pop()
        return updated_node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._functions.append(node)
        self._path.append(node.name.value)
        self._function_depths.append(len(self._path))

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.FunctionDef:
        self._function_depths.pop()
        self._path.pop()
        self._functions.pop()
        return updated_node

    def visit_Expr(self, node: cst.Expr) -> None:
        # The value of a bare call statement is thrown away: what strict=False returns
        # (the missing and unexpected keys) is then never looked at.
        if m.matches(node.value, _LOAD_STATE_DICT_CALL):
            self._discarded = node.value

    # -- the rewrite ---------------------------------------------------------------------

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if not m.matches(original_node, _LOAD_STATE_DICT_CALL):
            return updated_node
        args = original_node.args
        if any(arg.star for arg in args) or not args:
            return updated_node
        strict = _strict_argument(args)
        if strict is not None:
            if m.matches(strict, m.Name("False")) and original_node is self._discarded:
                self.report(
                    original_node,
                    "strict=False ignores missing and unexpected keys silently; check the "
                    "keys load_state_dict returns",
                )
            return updated_node
        receiver = original_node.func.value  # type: ignore[attr-defined]
        if self._functions and _has_parameter(self._functions[-1], "strict"):
            self.report(
                original_node,
                "this function takes `strict` but does not pass it on: pass strict=strict",
            )
            return updated_node
        kind = self._receiver_kind(receiver)
        if kind is Kind.OTHER:
            return updated_node
        message = "pass strict=True to make the checkpoint contract explicit"
        safety = Safety.SAFE
        if kind is Kind.UNKNOWN:
            safety = Safety.UNSAFE
            message += " (the receiver is not known to be an nn.Module)"
        return self.fix(
            original_node,
            updated_node,
            append_argument(updated_node, keyword("strict", cst.Name("True"))),
            message,
            safety,
        )

    # -- what the receiver is --------------------------------------------------------------

    def _receiver_kind(self, receiver: cst.BaseExpression) -> Kind:
        name = get_full_name_for_node(receiver)
        if name in self._evidence.narrowed_names:
            line = self.position(receiver).start.line
            narrowed = self._evidence.narrowed_kind(name, line)
            if narrowed is not Kind.UNKNOWN:
                return narrowed  # inside `if isinstance(receiver, torch.optim.Optimizer):`
        if m.matches(receiver, m.Call(func=m.Name("super"))) or m.matches(receiver, m.Name("self")):
            return self._class_kind()
        if isinstance(receiver, cst.Name):
            evidence = self._name_evidence(receiver)
            if evidence is not Kind.UNKNOWN:
                return evidence
            return kind_from_name(receiver.value)
        if isinstance(receiver, cst.Attribute):
            if m.matches(receiver.value, m.Name("self")) and self._classes:
                evidence = self._evidence.attribute_kind(self._classes[-1], receiver.attr.value)
                if evidence is not Kind.UNKNOWN:
                    return evidence
            return kind_from_name(receiver.attr.value)
        if isinstance(receiver, cst.Subscript):
            key = receiver.slice[0].slice if len(receiver.slice) == 1 else None
            if isinstance(key, cst.Index) and isinstance(key.value, cst.SimpleString):
                return kind_from_name(str(key.value.evaluated_value))  # ckpt["obs_normalizer"]
            return self._receiver_kind(receiver.value)  # critics[0] is one of the critics
        return Kind.UNKNOWN

    def _class_kind(self) -> Kind:
        return self._evidence.self_kind(self._classes[-1]) if self._classes else Kind.UNKNOWN

    def _name_evidence(self, name: cst.Name) -> Kind:
        # The innermost enclosing function that binds the name decides, else the module.
        scopes = [tuple(self._path[:depth]) for depth in reversed(self._function_depths)]
        for scope in [*scopes, ()]:
            kind = self._evidence.binding_kind(scope, name.value)
            if kind is not None:
                return kind
        return Kind.UNKNOWN


_LOAD_STATE_DICT_CALL = m.Call(func=m.Attribute(attr=m.Name("load_state_dict")))


def _strict_argument(args: Sequence[cst.Arg]) -> cst.BaseExpression | None:
    for arg in args:
        if arg.keyword is not None and arg.keyword.value == "strict":
            return arg.value
    positional = [arg for arg in args if arg.keyword is None]
    return positional[1].value if len(positional) > 1 else None


def _has_parameter(function: cst.FunctionDef, name: str) -> bool:
    params = function.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    return any(param.name.value == name for param in every)


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


def kind_from_name(identifier: str) -> Kind:
    words = set(name_words(identifier))
    if words & NOT_MODULE_WORDS:
        return Kind.OTHER
    if words & MODULE_WORDS and not words & VAGUE_WORDS:
        return Kind.MODULE
    return Kind.UNKNOWN


FunctionPath = tuple[str, ...]  # names of the enclosing classes and functions


class _Evidence(ast.NodeVisitor):
    """What the file itself says about names: classes, assignments, annotations.

    Read from CPython's parse, which is cheaper to walk than libcst's and lets the
    rewrite visit only the statements with calls in them.
    """

    def __init__(self) -> None:
        self.module_classes: set[str] = set()
        self._class_bases: dict[str, list[list[str]]] = {}
        # (enclosing function path, name) → (value, annotation) of each binding there
        self._bindings: dict[
            tuple[FunctionPath, str], list[tuple[ast.expr | None, ast.expr | None]]
        ] = {}
        self._attributes: dict[tuple[str, str], list[ast.expr]] = {}
        self._attribute_annotations: dict[tuple[str, str], list[ast.expr]] = {}
        self._path: list[str] = []
        self._functions: list[int] = []  # depth in _path of each enclosing function
        self._classes: list[str] = []
        # `if isinstance(x, T):` → (first line, last line of its body, "x", T)
        self._narrowings: list[tuple[int, int, str, ast.expr]] = []
        self.narrowed_names: set[str] = set()

    @classmethod
    def of(cls, tree: ast.Module | None) -> _Evidence:
        evidence = cls()
        if tree is not None:
            evidence.visit(tree)
            evidence._close_module_classes()
        return evidence

    # collection

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._class_bases[node.name] = [dotted(base) for base in node.bases]
        self._classes.append(node.name)
        self._path.append(node.name)
        self.generic_visit(node)
        self._path.pop()
        self._classes.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._path.append(node.name)
        self._functions.append(len(self._path))
        arguments = node.args
        for param in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
            self._bind(param.arg, None, param.annotation)
        self.generic_visit(node)
        self._functions.pop()
        self._path.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        if (
            isinstance(test, ast.Call)
            and dotted(test.func) == ["isinstance"]
            and len(test.args) == 2
            and dotted(test.args[0])
        ):
            name = ".".join(dotted(test.args[0]))
            last = node.body[-1]
            self._narrowings.append(
                (node.body[0].lineno, last.end_lineno or last.lineno, name, test.args[1])
            )
            self.narrowed_names.add(name)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._note_target(target, node.value, None)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._note_target(node.target, node.value, node.annotation)
        if (
            isinstance(node.target, ast.Name)
            and self._classes
            and self._path[-1:] == self._classes[-1:]
        ):  # `total: Tracker = field(...)` in a class body types `self.total`
            self._attribute_annotations.setdefault(
                (self._classes[-1], node.target.id), []
            ).append(node.annotation)
        self.generic_visit(node)

    def _note_target(
        self, target: ast.expr, value: ast.expr | None, annotation: ast.expr | None
    ) -> None:
        if isinstance(target, ast.Name):
            self._bind(target.id, value, annotation)
        elif (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == "self"
            and self._classes
            and value is not None
        ):
            self._attributes.setdefault((self._classes[-1], target.attr), []).append(value)

    def _bind(self, name: str, value: ast.expr | None, annotation: ast.expr | None) -> None:
        function = tuple(self._path[: self._functions[-1]]) if self._functions else ()
        if isinstance(value, ast.Call) and dotted(value.func) == ["cls"] and self._classes:
            # `obj = cls()` in a classmethod builds this class (or a subclass).
            value = ast.Call(func=ast.Name(id=self._classes[-1]), args=[], keywords=[])
        self._bindings.setdefault((function, name), []).append((value, annotation))

    def _close_module_classes(self) -> None:
        # A class is a module if one of its bases is, directly or through this file.
        changed = True
        while changed:
            changed = False
            for name, bases in self._class_bases.items():
                if name not in self.module_classes and any(
                    base and (base[-1] in MODULE_BASES or base[-1] in self.module_classes)
                    for base in bases
                ):
                    self.module_classes.add(name)
                    changed = True

    # questions

    def binding_kind(self, function: FunctionPath, name: str) -> Kind | None:
        """What the bindings of `name` in that scope agree on; None if it has none."""
        bindings = self._bindings.get((function, name))
        if not bindings:
            return None
        kinds = {
            self.annotation_kind(annotation) if annotation is not None
            else self.value_kind(value) if value is not None
            else Kind.UNKNOWN
            for value, annotation in bindings
        }
        return kinds.pop() if len(kinds) == 1 else Kind.UNKNOWN

    def narrowed_kind(self, name: str, line: int) -> Kind:
        """What an enclosing `if isinstance(name, T):` says `name` is at `line`."""
        kinds = {
            self._types_kind(types)
            for first, last, narrowed, types in self._narrowings
            if narrowed == name and first <= line <= last
        }
        return kinds.pop() if len(kinds) == 1 else Kind.UNKNOWN

    def _types_kind(self, types: ast.expr) -> Kind:
        if isinstance(types, ast.Tuple):
            kinds = {self._types_kind(element) for element in types.elts}
            return kinds.pop() if len(kinds) == 1 else Kind.UNKNOWN
        return self._class_name_kind(dotted(types))

    def self_kind(self, class_name: str) -> Kind:
        """What `self` (or `super()`) is in the methods of `class_name`."""
        if class_name in self.module_classes:
            return Kind.MODULE
        bases = self._class_bases.get(class_name, [])
        # A base this file does not define could be an nn.Module only if it is named like
        # one (`BaseModel`, `PolicyNet`); `Serializable`, `Callback` or no base at all
        # take no `strict`.
        if any(base and base[-1] not in self._class_bases and kind_from_name(base[-1])
               is Kind.MODULE for base in bases):
            return Kind.UNKNOWN
        return Kind.OTHER

    def attribute_kind(self, class_name: str, attribute: str) -> Kind:
        kinds = {self.value_kind(v) for v in self._attributes.get((class_name, attribute), [])}
        kinds |= {self.annotation_kind(annotation) for annotation
                  in self._attribute_annotations.get((class_name, attribute), [])}
        return kinds.pop() if len(kinds) == 1 else Kind.UNKNOWN

    def annotation_kind(self, annotation: ast.expr) -> Kind:
        if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
            return _agree(self.annotation_kind(annotation.left),
                          self.annotation_kind(annotation.right))
        if isinstance(annotation, ast.Subscript) and dotted(annotation.value)[-1:] == [
            "Optional"
        ]:
            return self.annotation_kind(annotation.slice)
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            try:  # a string annotation: "nn.Module"
                return self.annotation_kind(ast.parse(annotation.value, mode="eval").body)
            except SyntaxError:
                return Kind.UNKNOWN
        return self._class_name_kind(dotted(annotation))

    def value_kind(self, value: ast.expr) -> Kind:
        if not isinstance(value, ast.Call):
            return Kind.UNKNOWN
        func = value.func
        name = dotted(func)
        if isinstance(func, ast.Attribute) and func.attr in MODULE_RETURNING_METHODS:
            inner = self.value_kind(func.value)
            if inner is not Kind.UNKNOWN:
                return inner
        if name[-2:] == ["timm", "create_model"] or (
            len(name) >= 2 and name[-1] == "from_pretrained" and "Model" in name[-2]
        ):
            return Kind.MODULE
        if name[-1:] == ["deepcopy"]:
            return self.value_kind(value.args[0]) if value.args else Kind.UNKNOWN
        return self._class_name_kind(name)

    def _class_name_kind(self, name: list[str]) -> Kind:
        if not name:
            return Kind.UNKNOWN
        last = name[-1]
        if (
            last in OPTIMIZER_CLASSES
            or "lr_scheduler" in name
            or "optim" in name[:-1]
            or last.endswith(("LR", "Scheduler"))
        ):
            return Kind.OTHER
        if last in self.module_classes or last in MODULE_BASES:
            return Kind.MODULE
        if len(name) == 1 and last in self._class_bases:
            return self.self_kind(last)  # a class of this file that is not a module
        if len(name) >= 2 and name[-2] == "nn" and last[:1].isupper():
            return Kind.MODULE  # nn.Linear(...), torch.nn.Sequential(...)
        return Kind.UNKNOWN


def _agree(first: Kind, second: Kind) -> Kind:
    known = {kind for kind in (first, second) if kind is not Kind.UNKNOWN}
    return known.pop() if len(known) == 1 else Kind.UNKNOWN

