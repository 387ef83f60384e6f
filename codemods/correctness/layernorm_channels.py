"""layernorm-channels: `nn.LayerNorm(C)` applied to a Conv1d output `(B, C, T)`."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field

from torchfix.model.ast_index import nodes_of
from torchfix.model.semantic import SemanticModel
from torchfix.rewrite.contract import Codemod, FileContext, Finding, Safety

CONV1D = frozenset({"torch.nn.Conv1d", "torch.nn.modules.conv.Conv1d", "torch.nn.LazyConv1d"})
LAYER_NORM = frozenset({"torch.nn.LayerNorm", "torch.nn.modules.normalization.LayerNorm"})
SEQUENTIAL = frozenset({"torch.nn.Sequential", "torch.nn.modules.container.Sequential"})
FUNCTIONAL_LAYER_NORM = frozenset({"torch.nn.functional.layer_norm", "torch.layer_norm"})
# Modules and functions that keep a (batch, channels, time) layout as it is.
LAYOUT_KEEPING_MODULES = frozenset({
    "ReLU", "ReLU6", "GELU", "SiLU", "Tanh", "Sigmoid", "LeakyReLU", "ELU", "SELU", "CELU",
    "Mish", "Softplus", "Hardswish", "Hardtanh", "PReLU", "GLU", "Dropout", "Dropout1d",
    "AlphaDropout", "Identity", "BatchNorm1d", "InstanceNorm1d", "GroupNorm",
})
LAYOUT_KEEPING_FUNCTIONS = frozenset({
    "relu", "relu6", "gelu", "silu", "tanh", "sigmoid", "leaky_relu", "elu", "selu", "mish",
    "softplus", "hardswish", "dropout", "dropout1d", "batch_norm", "group_norm",
    "instance_norm",
})
MESSAGE = ("LayerNorm({shape}) normalizes the last dimension, but the Conv1d output it gets "
           "is (batch, {shape}, time): transpose to (batch, time, channels) around it, "
           "x.transpose(1, 2)")


@dataclass(frozen=True)
class _Conv:
    """The Conv1d a LayerNorm follows, by its out_channels."""

    channels: str  # how the Conv1d's out_channels is written (ast.dump), for comparing
    text: str  # ... and as source, for the message


@dataclass
class _Layers:
    """What a module class assigns to `self.<name>` in its methods."""

    convs: dict[str, _Conv] = field(default_factory=dict)
    norms: dict[str, ast.expr] = field(default_factory=dict)  # normalized_shape
    keeping: set[str] = field(default_factory=set)
    sequences: dict[str, list[ast.expr]] = field(default_factory=dict)


class LayernormChannels(Codemod):
    """Report `nn.LayerNorm(C)` applied to a `Conv1d` output without a transpose.

    ## What it does
    Reports a `LayerNorm` whose `normalized_shape` is the channel count of a `Conv1d`
    whose output it normalizes directly, in a module's `forward` (`x = self.conv(x)`,
    then `self.norm(x)`, through activations and dropout but no transpose) or inside one
    `nn.Sequential(nn.Conv1d(..., C, ...), nn.ReLU(), nn.LayerNorm(C))`.

    ## Why
    `Conv1d` returns `(batch, channels, time)`, and `LayerNorm(C)` normalizes over the
    last dimension. When `time != C` the forward pass raises a shape error; when they
    happen to be equal (a fixed window the size of the hidden width) it silently
    normalizes each channel over time, which is a different model from the one
    intended. The usual fix transposes around the norm, or wraps it:
    `self.norm(x.transpose(1, 2)).transpose(1, 2)`.

    ## Example
    ```python
    class TemporalBlock(nn.Module):
        def __init__(self, channels):
            super().__init__()
            self.conv = nn.Conv1d(channels, channels, kernel_size=3, padding=2, dilation=2)
            self.norm = nn.LayerNorm(channels)

        def forward(self, x):  # x: (batch, channels, time)
            x = self.conv(x)
            return self.norm(x)  # reported: normalizes over time, not channels
    ```

    ## Fix safety
    Reported only: where to transpose back, and whether a `GroupNorm` or a channel-last
    layout is wanted instead, is a modelling decision. The report needs the LayerNorm's
    size to be written as the Conv1d's `out_channels` (the same literal or name); any
    transpose, permute, view, `einops.rearrange` or unknown call between them ends the
    trail, and so does a LayerNorm over another size (the time axis, on purpose).
    """

    name = "layernorm-channels"
    summary = "Report nn.LayerNorm(C) applied to a Conv1d's (batch, C, time) output."
    triggers = (b"Conv1d",)
    fix_safety = "report"
    family = "correctness"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        # A Conv1d and a LayerNorm (module or function) must both be called in the file.
        convs = {call.lineno for call in nodes_of(tree, ast.Call)
                 if _called_name(call) in ("Conv1d", "LazyConv1d")}
        if not convs or not any(_called_name(call) in ("LayerNorm", "layer_norm")
                                for call in nodes_of(tree, ast.Call)):
            return set()
        return convs

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        model = file.semantic
        convs = [call for call in nodes_of(file.tree, ast.Call)
                 if _called_name(call) in ("Conv1d", "LazyConv1d")
                 and model.qualified_name(call.func) in CONV1D]
        found: dict[int, Finding] = {}
        for call in nodes_of(file.tree, ast.Call):
            if any(arg in convs for arg in call.args) and \
                    model.qualified_name(call.func) in SEQUENTIAL:
                for norm, conv in _in_sequence(model, call.args):
                    found[id(norm)] = Finding(norm, MESSAGE.format(shape=conv.text),
                                              Safety.MANUAL)
        classes = {id(c): c for c in (model.enclosing_class(conv) for conv in convs) if c}
        for cls_node in classes.values():
            layers = _layers(file, cls_node)
            if not layers.convs and not layers.sequences:
                continue
            for method in cls_node.body:
                if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                        method.args.args:
                    trail = _Trail(file, layers, method.args.args[0].arg)
                    trail.run(method.body)
                    for norm, conv in trail.reports:
                        found[id(norm)] = Finding(norm, MESSAGE.format(shape=conv.text),
                                                  Safety.MANUAL)
        yield from sorted(found.values(), key=lambda f: (f.node.lineno, f.node.col_offset))


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else (
        func.id if isinstance(func, ast.Name) else None)


def _argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    for k in call.keywords:
        if k.arg == keyword:
            return k.value
    return call.args[index] if len(call.args) > index else None


def _norm_shape(model: SemanticModel, call: ast.expr) -> ast.expr | None:
    if not (isinstance(call, ast.Call) and model.qualified_name(call.func) in LAYER_NORM):
        return None
    return _argument(call, 0, "normalized_shape")


def _key(model: SemanticModel, expr: ast.expr) -> str:
    """A size as compared: its literal value, else how it is written; `[C]`/`(C,)` is C."""
    if isinstance(expr, (ast.List, ast.Tuple)) and len(expr.elts) == 1:
        expr = expr.elts[0]
    value = model.literal(expr)
    if isinstance(value, int) and not isinstance(value, bool):
        return repr(value)
    return ast.dump(expr)


def _keeps_layout(model: SemanticModel, call: ast.expr) -> bool:
    if not isinstance(call, ast.Call):
        return False
    name = model.qualified_name(call.func) or ""
    return name.startswith("torch.nn.") and name.rsplit(".", 1)[-1] in LAYOUT_KEEPING_MODULES


def _in_sequence(model: SemanticModel, elements: list[ast.expr]
                 ) -> list[tuple[ast.expr, _Conv]]:
    """LayerNorms in an `nn.Sequential(...)` that directly follow a matching Conv1d."""
    reports: list[tuple[ast.expr, _Conv]] = []
    current: _Conv | None = None
    for element in elements:
        conv = _conv_of(model, element)
        shape = _norm_shape(model, element)
        if conv is not None:
            current = conv
        elif shape is not None:
            if current is not None and _key(model, shape) == current.channels:
                reports.append((element, current))
            current = None
        elif not _keeps_layout(model, element):
            current = None
    return reports


def _conv_of(model: SemanticModel, element: ast.expr) -> _Conv | None:
    if not (isinstance(element, ast.Call) and model.qualified_name(element.func) in CONV1D):
        return None
    index = 0 if model.qualified_name(element.func) == "torch.nn.LazyConv1d" else 1
    channels = _argument(element, index, "out_channels")
    if channels is None:
        return None
    return _Conv(_key(model, channels), ast.unparse(channels))


def _layers(file: FileContext, cls: ast.ClassDef) -> _Layers:
    """The Conv1d, LayerNorm, layout-keeping and Sequential attributes `cls` assigns."""
    model = file.semantic
    layers = _Layers()
    for method in cls.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or not method.args.args:
            continue
        receiver = method.args.args[0].arg
        for node in ast.walk(method):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
                continue
            target = node.targets[0]
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                    and target.value.id == receiver):
                continue
            name, value = target.attr, node.value
            conv = _conv_of(model, value)
            shape = _norm_shape(model, value)
            if conv is not None:
                layers.convs[name] = conv
            elif shape is not None:
                layers.norms[name] = shape
            elif _keeps_layout(model, value):
                layers.keeping.add(name)
            elif isinstance(value, ast.Call) and model.qualified_name(value.func) in SEQUENTIAL:
                layers.sequences[name] = list(value.args)
            else:
                continue
            # An attribute assigned two different kinds of layer is not known.
            kinds = sum(name in group for group in (
                layers.convs, layers.norms, layers.keeping, layers.sequences))
            if kinds > 1:
                for group in (layers.convs, layers.norms, layers.sequences):
                    group.pop(name, None)  # type: ignore[attr-defined]
                layers.keeping.discard(name)
    return layers


class _Trail:
    """Follows Conv1d outputs through one method, statement by statement."""

    def __init__(self, file: FileContext, layers: _Layers, receiver: str) -> None:
        self.model = file.semantic
        self.layers = layers
        self.receiver = receiver
        self.names: dict[str, _Conv | None] = {}
        self.reports: list[tuple[ast.expr, _Conv]] = []

    def run(self, body: list[ast.stmt]) -> None:
        for statement in body:
            if isinstance(statement, ast.Assign):
                state = self.value(statement.value)
                for target in statement.targets:
                    self._bind(target, state)
            elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
                if statement.value is not None:
                    state = self.value(statement.value)
                    self._bind(statement.target,
                               state if isinstance(statement, ast.AnnAssign) else None)
            elif isinstance(statement, (ast.Expr, ast.Return)):
                if statement.value is not None:
                    self.value(statement.value)
            elif isinstance(statement, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
                for block in ("body", "orelse", "finalbody"):
                    self.run(getattr(statement, block, []))
                for handler in getattr(statement, "handlers", []):
                    self.run(handler.body)

    def _bind(self, target: ast.expr, state: _Conv | None) -> None:
        if isinstance(target, ast.Name):
            self.names[target.id] = state
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._bind(element, None)

    def value(self, expr: ast.expr) -> _Conv | None:
        """The Conv1d whose (batch, channels, time) output `expr` is, if any."""
        if isinstance(expr, ast.Name):
            return self.names.get(expr.id)
        if isinstance(expr, ast.BinOp):
            left, right = self.value(expr.left), self.value(expr.right)
            return left or right
        if isinstance(expr, ast.Call):
            return self._call(expr)
        for child in ast.iter_child_nodes(expr):  # look for reports inside
            if isinstance(child, ast.expr):
                self.value(child)
        return None

    def _call(self, call: ast.Call) -> _Conv | None:
        arguments = [self.value(a) for a in call.args]
        for keyword in call.keywords:
            self.value(keyword.value)
        func = call.func
        first = arguments[0] if arguments else None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
                func.value.id == self.receiver and len(call.args) >= 1:
            layer = func.attr
            if layer in self.layers.convs:
                return self.layers.convs[layer]
            if layer in self.layers.norms:
                if first is not None and _key(self.model, self.layers.norms[layer]) == \
                        first.channels:
                    self.reports.append((call, first))
                return None
            if layer in self.layers.keeping:
                return first
            if layer in self.layers.sequences:
                return self._sequence(self.layers.sequences[layer], first)
            return None
        qualified = self.model.qualified_name(func) or ""
        if qualified in FUNCTIONAL_LAYER_NORM and first is not None and len(call.args) > 1:
            if _key(self.model, call.args[1]) == first.channels:
                self.reports.append((call, first))
            return None
        if qualified.startswith(("torch.nn.functional.", "torch.")) and \
                qualified.rsplit(".", 1)[-1] in LAYOUT_KEEPING_FUNCTIONS:
            return first
        if isinstance(func, ast.Attribute) and qualified == "" and \
                func.attr in LAYOUT_KEEPING_FUNCTIONS and not call.args:
            return self.value(func.value)  # x.relu(), x.sigmoid()
        if isinstance(func, ast.Attribute):
            self.value(func.value)
        return None

    def _sequence(self, elements: list[ast.expr], state: _Conv | None) -> _Conv | None:
        for element in elements:
            conv = _conv_of(self.model, element)
            if conv is not None:
                state = conv
            elif (shape := _norm_shape(self.model, element)) is not None:
                if state is not None and _key(self.model, shape) == state.channels:
                    self.reports.append((element, state))
                state = None
            elif not _keeps_layout(self.model, element):
                state = None
        return state
