"""strict-load-state-dict: make `nn.Module.load_state_dict` checkpoints strict, explicitly."""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum
from typing import ClassVar

import libcst as cst
import libcst.matchers as m
from libcst.codemod import CodemodContext
from libcst.metadata import PositionProvider, ScopeProvider

from torchfix.codemod import CodemodSettings, Safety, TorchfixCodemod
from torchfix.edits import append_argument, keyword


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
# Words that say "this holds training state, not weights": these classes take no `strict`.
NOT_MODULE_WORDS = frozenset(
    {
        "lr", "normaliser", "normalizer", "opt", "optim", "optimiser", "optimizer",
        "rms", "sched", "scaler", "scheduler",
    }
)
# Words that make a name too vague to trust either way (`model_ema`, `model_state`, ...).
VAGUE_WORDS = frozenset(
    {
        "accelerator", "buffer", "callback", "checkpoint", "ckpt", "config", "cfg", "dict",
        "ema", "engine", "env", "fabric", "loader", "logger", "manager", "meter", "metric",
        "processor", "sampler", "sd", "state", "strategy", "tokenizer", "trainer",
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
    `critic`, `encoder`, ...). Receivers that look like optimizers, schedulers, scalers or
    normalizers are never touched. Everything else is **unsafe**. Calls that already pass
    `strict` (by keyword or position) or pass `*args`/`**kwargs` are left alone. Inside a
    function that takes a `strict` parameter of its own, the call is reported instead:
    that parameter should be passed on.
    """

    name = "strict-load-state-dict"
    summary = "Pass strict=True to nn.Module.load_state_dict so checkpoint mismatches raise."
    triggers = (b"load_state_dict",)
    fix_safety = "safe, unsafe"
    METADATA_DEPENDENCIES: ClassVar[tuple[object, ...]] = (PositionProvider, ScopeProvider)

    def __init__(self, context: CodemodContext, settings: CodemodSettings | None = None) -> None:
        super().__init__(context, settings)
        self._evidence = _Evidence()
        self._classes: list[str] = []
        self._functions: list[cst.FunctionDef] = []
        self._discarded: cst.BaseExpression | None = None

    # -- context tracking ----------------------------------------------------------------

    def visit_Module(self, node: cst.Module) -> None:
        node.visit(self._evidence)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(node.name.value)

    def leave_ClassDef(
        self, original_node: cst.ClassDef, updated_node: cst.ClassDef
    ) -> cst.ClassDef:
        self._classes.pop()
        return updated_node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._functions.append(node)

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.FunctionDef:
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
        if self._classes and self._classes[-1] in self._evidence.module_classes:
            return Kind.MODULE
        return Kind.UNKNOWN

    def _name_evidence(self, name: cst.Name) -> Kind:
        scope = self.get_metadata(ScopeProvider, name, None)
        if scope is None:
            return Kind.UNKNOWN
        kinds = {self._evidence.assignment_kind(a.node) for a in scope[name.value]}
        return kinds.pop() if len(kinds) == 1 else Kind.UNKNOWN


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


def dotted(node: cst.BaseExpression) -> list[str]:
    """`torch.nn.Linear` → ["torch", "nn", "Linear"]; [] for anything else."""
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return [*base, node.attr.value] if base else []
    return []


class _Evidence(cst.CSTVisitor):
    """What the file itself says about names: classes, assignments, annotations."""

    def __init__(self) -> None:
        self.module_classes: set[str] = set()
        self._class_bases: dict[str, list[list[str]]] = {}
        self._values: dict[int, cst.BaseExpression] = {}  # id(target Name) → assigned value
        self._annotations: dict[int, cst.BaseExpression] = {}  # id(Param/target) → annotation
        self._attributes: dict[tuple[str, str], list[cst.BaseExpression]] = {}
        self._classes: list[str] = []

    # collection

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._class_bases[node.name.value] = [dotted(base.value) for base in node.bases]
        self._classes.append(node.name.value)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._classes.pop()

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._note_target(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._annotations[id(node.target)] = node.annotation.annotation
        if node.value is not None:
            self._note_target(node.target, node.value)

    def visit_Param(self, node: cst.Param) -> None:
        if node.annotation is not None:
            self._annotations[id(node)] = node.annotation.annotation

    def _note_target(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self._values[id(target)] = value
        elif (
            isinstance(target, cst.Attribute)
            and m.matches(target.value, m.Name("self"))
            and self._classes
        ):
            self._attributes.setdefault((self._classes[-1], target.attr.value), []).append(value)

    def leave_Module(self, original_node: cst.Module) -> None:
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

    def assignment_kind(self, node: cst.CSTNode) -> Kind:
        annotation = self._annotations.get(id(node))
        if annotation is not None:
            return self.annotation_kind(annotation)
        value = self._values.get(id(node))
        return self.value_kind(value) if value is not None else Kind.UNKNOWN

    def attribute_kind(self, class_name: str, attribute: str) -> Kind:
        kinds = {self.value_kind(v) for v in self._attributes.get((class_name, attribute), [])}
        return kinds.pop() if len(kinds) == 1 else Kind.UNKNOWN

    def annotation_kind(self, annotation: cst.BaseExpression) -> Kind:
        if isinstance(annotation, cst.BinaryOperation):  # `nn.Module | None`
            return _agree(self.annotation_kind(annotation.left),
                          self.annotation_kind(annotation.right))
        if isinstance(annotation, cst.Subscript) and dotted(annotation.value)[-1:] == ["Optional"]:
            inner = annotation.slice[0].slice
            return self.annotation_kind(inner.value) if isinstance(inner, cst.Index) else Kind.UNKNOWN
        return self._class_name_kind(dotted(annotation))

    def value_kind(self, value: cst.BaseExpression) -> Kind:
        if not isinstance(value, cst.Call):
            return Kind.UNKNOWN
        func = value.func
        name = dotted(func)
        if isinstance(func, cst.Attribute) and func.attr.value in MODULE_RETURNING_METHODS:
            inner = self.value_kind(func.value)
            if inner is not Kind.UNKNOWN:
                return inner
        if name[-2:] == ["timm", "create_model"] or (
            len(name) >= 2 and name[-1] == "from_pretrained" and "Model" in name[-2]
        ):
            return Kind.MODULE
        if name[-2:-1] == ["deepcopy"] or name[-1:] == ["deepcopy"]:
            return self.value_kind(value.args[0].value) if value.args else Kind.UNKNOWN
        return self._class_name_kind(name)

    def _class_name_kind(self, name: list[str]) -> Kind:
        if not name:
            return Kind.UNKNOWN
        last = name[-1]
        if last in OPTIMIZER_CLASSES or "lr_scheduler" in name or last.endswith(
            ("LR", "Scheduler", "LRScheduler")
        ) or "optim" in name[:-1]:
            return Kind.OTHER
        if last in self.module_classes or last in MODULE_BASES:
            return Kind.MODULE
        if len(name) >= 2 and name[-2] == "nn" and last[:1].isupper():
            return Kind.MODULE  # nn.Linear(...), torch.nn.Sequential(...)
        return Kind.UNKNOWN


def _agree(first: Kind, second: Kind) -> Kind:
    known = {kind for kind in (first, second) if kind is not Kind.UNKNOWN}
    return known.pop() if len(known) == 1 else Kind.UNKNOWN

