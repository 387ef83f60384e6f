"""hoist-mask-constant: fill masks with Python scalars, not per-call `torch.tensor` constants."""

from __future__ import annotations

import ast
import bisect
import math
import struct
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import libcst as cst
import libcst.matchers as m
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import RemoveImportsVisitor

from torchfix.model.ast_index import nodes_of, walk
from torchfix.model.ast_names import dotted
from torchfix.rewrite.codemod import CodemodSettings, Option, Safety, TorchfixCodemod

# -- dtypes ---------------------------------------------------------------------------------

_DTYPE_NAMES = {
    "float16": "float16", "half": "float16", "bfloat16": "bfloat16",
    "float32": "float32", "float": "float32", "float64": "float64", "double": "float64",
    "int8": "int8", "uint8": "uint8", "int16": "int16", "short": "int16",
    "int32": "int32", "int": "int32", "int64": "int64", "long": "int64", "bool": "bool",
}
_INT_RANGES = {
    "int8": (-(2**7), 2**7 - 1), "uint8": (0, 2**8 - 1), "int16": (-(2**15), 2**15 - 1),
    "int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1),
}
# torch.finfo(<dtype>) and torch.iinfo(<dtype>), so that no torch is needed to read them.
_FINFO = {
    "float16": {"max": 65504.0, "eps": 2.0**-10, "tiny": 2.0**-14},
    "bfloat16": {"max": 3.3895313892515355e38, "eps": 2.0**-7, "tiny": 2.0**-126},
    "float32": {"max": 3.4028234663852886e38, "eps": 2.0**-23, "tiny": 2.0**-126},
    "float64": {"max": 1.7976931348623157e308, "eps": 2.0**-52, "tiny": 2.0**-1022},
}
FLOAT16_MAX = _FINFO["float16"]["max"]
# The fill values worth a module constant: "large" masking values such as -1e4 or -1e9.
# 0, 1, -1 and -100 read better as they are, and infinities already say what they are.
HOIST_MIN_MAGNITUDE = 1000.0

Scalar = bool | int | float


def finfo_value(dtype: str, attr: str) -> float | None:
    limits = _FINFO.get(dtype)
    if limits is None:
        return None
    if attr == "min":
        return -limits["max"]
    if attr == "smallest_normal":
        return limits["tiny"]
    return limits.get(attr)


def iinfo_value(dtype: str, attr: str) -> int | None:
    bounds = _INT_RANGES.get(dtype)
    if bounds is None or attr not in ("min", "max"):
        return None
    return bounds[0] if attr == "min" else bounds[1]


def holds_exactly(value: Scalar, dtype: str) -> bool:
    """Whether `torch.tensor(value, dtype=dtype)` holds `value` itself, unrounded."""
    if dtype == "bool":
        return value in (0, 1)
    if dtype in _INT_RANGES:
        if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
            return False
        low, high = _INT_RANGES[dtype]
        return low <= value <= high
    as_float = float(value)
    if isinstance(value, int) and as_float != value:
        return False  # an int beyond float64's 53-bit mantissa
    if not math.isfinite(as_float) or dtype == "float64":
        return True
    if dtype == "bfloat16":
        if not holds_exactly(as_float, "float32"):
            return False
        return struct.unpack("<I", struct.pack("<f", as_float))[0] & 0xFFFF == 0
    code = {"float16": "e", "float32": "f"}.get(dtype)
    if code is None:
        return False
    try:
        return struct.unpack(code, struct.pack(code, as_float))[0] == as_float
    except OverflowError:
        return False


def _same_kind(dtype: str) -> tuple[str, ...]:
    """The default dtypes of the Python numbers that `.item()` gives for this dtype."""
    if dtype == "bool":
        return ("bool",)
    return ("int64",) if dtype in _INT_RANGES else ("float32",)


def default_dtype(value: Scalar) -> str:
    """The dtype `torch.tensor(value)` gets (float32: the usual default float dtype)."""
    if isinstance(value, bool):
        return "bool"
    return "int64" if isinstance(value, int) else "float32"


def holds_in_every_dtype(value: Scalar) -> bool:
    """Filled the same from a tensor of any dtype (bool and unsigned ones included)."""
    return value in (0, 1)


# -- constants ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Number:
    """A constant whose value is known here."""

    value: Scalar


@dataclass(frozen=True)
class DtypeLimit:
    """`torch.finfo(<tensor>.dtype).min` (or `.max`): known once that tensor's dtype is."""

    tensor: str  # ast.dump of the tensor expression
    attr: str


@dataclass(frozen=True)
class Opaque:
    """An UPPER_CASE constant defined elsewhere: a constant, but of unknown value."""

    text: str


Constant = Number | DtypeLimit | Opaque


@dataclass(frozen=True)
class Dtype:
    """What decides the dtype of a constant tensor."""

    kind: Literal["default", "literal", "of", "unknown"]
    name: str = ""  # the dtype for "literal"; ast.dump of the tensor for "of"
    root: str = ""  # for "of": the variable the tensor is read from
    # False for a dtype given by `.to()`: a cast, which wraps or saturates out-of-range
    # values where the constructor and masked_fill raise.
    checked: bool = True

    def is_of(self, tensor: str | None) -> bool:
        return self.kind == "of" and self.name == tensor


def dtype_of(tensor: ast.expr, *, checked: bool = True) -> Dtype:
    return Dtype("of", dump(tensor), dotted(tensor)[0], checked)


@dataclass(frozen=True)
class ConstantTensor:
    """`torch.tensor(C, dtype=..., device=...)` and the forms that mean the same."""

    value: Constant
    dtype: Dtype
    device: str | None  # ast.dump of `<tensor>.device`, "cpu", None when absent, "" otherwise
    device_root: str = ""  # the variable the device is read from, if any


@dataclass(frozen=True)
class ArgRef:
    """Where an argument is in a call: its index among the positional ones, or its keyword."""

    index: int = -1
    keyword: str = ""


@dataclass(frozen=True)
class FillSite:
    """One fill operand of `masked_fill` / `masked_fill_` / `torch.masked_fill` / `torch.where`."""

    function: Literal["masked_fill", "where"]
    operand: ast.expr
    ref: ArgRef
    target: ast.expr  # masked_fill: the tensor filled; where: the other operand


@dataclass(frozen=True)
class Verdict:
    safety: Safety
    reason: str = ""  # why the fix is unsafe; "{constant}" stands for the constant as written


def dump(node: ast.AST) -> str:
    return ast.dump(node)


def is_upper_case(name: str) -> bool:
    stripped = name.strip("_")
    return bool(stripped) and stripped.upper() == stripped and any(c.isalpha() for c in name)


# -- what the module says -------------------------------------------------------------------

_CONSTRUCTORS = frozenset({"tensor", "as_tensor", "scalar_tensor"})
_FILL_METHODS = frozenset({"masked_fill", "masked_fill_"})
_DROPPABLE_CHAIN = frozenset({"to", "cuda", "cpu", "type_as"})
_SPECIAL_FLOATS = {"inf": math.inf, "nan": math.nan}


@dataclass
class ModuleFacts:
    """Names and constants read once from CPython's parse of the file."""

    torch_modules: set[str] = field(default_factory=set)  # names bound to `torch`
    torch_functions: dict[str, str] = field(default_factory=dict)  # `from torch import x as y`
    float_modules: set[str] = field(default_factory=set)  # math, numpy (their inf and nan)
    float_names: dict[str, float] = field(default_factory=dict)  # `from math import inf`
    constants: dict[str, Number] = field(default_factory=dict)  # module-level NAME = literal
    bindings: Counter[str] = field(default_factory=Counter)  # times each name is bound
    identifiers: set[str] = field(default_factory=set)
    uses_torchscript: bool = False

    @classmethod
    def of(cls, tree: ast.Module) -> ModuleFacts:
        facts = cls()
        for node in walk(tree):
            if isinstance(node, ast.Name):
                facts.identifiers.add(node.id)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                facts._read_import(node)
            elif isinstance(node, ast.Attribute) and node.attr in ("jit", "script"):
                facts.uses_torchscript = True
            facts.bindings.update(_bound_here(node))
        facts.identifiers.update(facts.bindings)
        for statement in tree.body:
            if (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and is_upper_case(statement.targets[0].id)
                and facts.bound_once(statement.targets[0].id)
            ):
                value = facts.literal_value(statement.value)
                if value is not None:
                    facts.constants[statement.targets[0].id] = Number(value)
        return facts

    def bound_once(self, name: str) -> bool:
        """Bound by one statement of the whole file: by it and by nothing that shadows it."""
        return self.bindings[name] == 1

    def _read_import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "torch":
                    self.torch_modules.add(alias.asname or "torch")
                elif alias.name.startswith("torch.") and not alias.asname:
                    self.torch_modules.add("torch")  # `import torch.nn` binds `torch`
                elif alias.name in ("math", "numpy"):
                    self.float_modules.add(alias.asname or alias.name)
                if alias.name.startswith("torch.jit"):
                    self.uses_torchscript = True
            return
        if node.level != 0:
            return
        if (node.module or "").startswith("torch.jit"):
            self.uses_torchscript = True
        for alias in node.names:
            local = alias.asname or alias.name
            if node.module == "torch":
                self.torch_functions[local] = alias.name
            if node.module in ("math", "numpy", "torch") and alias.name in _SPECIAL_FLOATS:
                self.float_names[local] = _SPECIAL_FLOATS[alias.name]

    # expressions

    def is_torch(self, node: ast.expr, function: str) -> bool:
        """Whether `node` names `torch.<function>` here."""
        if isinstance(node, ast.Attribute):
            return (
                node.attr == function
                and isinstance(node.value, ast.Name)
                and node.value.id in self.torch_modules
            )
        return isinstance(node, ast.Name) and self.torch_functions.get(node.id) == function

    def literal_value(self, node: ast.expr) -> Scalar | None:
        """The value of a number written out: `-1e9`, `float("-inf")`, `-math.inf`."""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = self.literal_value(node.operand)
            if inner is None or isinstance(inner, bool):
                return None
            return -inner if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int, float)):
            return node.value
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "float"
            and "float" not in self.bindings
            and len(node.args) == 1
            and not node.keywords
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            try:
                return float(node.args[0].value)
            except ValueError:
                return None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            base = node.value.id
            if base in self.float_modules or base in self.torch_modules:
                return _SPECIAL_FLOATS.get(node.attr)
        if isinstance(node, ast.Name) and self.bound_once(node.id):
            return self.float_names.get(node.id)
        return None

    def constant(self, node: ast.expr) -> Constant | None:
        """What kind of constant `node` is; None when it is not one."""
        value = self.literal_value(node)
        if value is not None:
            return Number(value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.constant(node.operand)
            if isinstance(inner, Number) and not isinstance(inner.value, bool):
                return Number(-inner.value)
            if isinstance(inner, DtypeLimit) and inner.attr == "max":
                return DtypeLimit(inner.tensor, "min")  # float limits are symmetric
            return Opaque(ast.unparse(node)) if isinstance(inner, Opaque) else None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call):
            return self._type_limit(node.value, node.attr)
        names = dotted(node)
        if names and is_upper_case(names[-1]):
            if len(names) == 1 and names[0] in self.constants:
                return self.constants[names[0]]
            return Opaque(".".join(names))
        return None

    def _type_limit(self, call: ast.Call, attr: str) -> Constant | None:
        kind = "finfo" if self.is_torch(call.func, "finfo") else (
            "iinfo" if self.is_torch(call.func, "iinfo") else "")
        if not kind or len(call.args) != 1 or call.keywords:
            return None
        argument = call.args[0]
        literal = self.dtype_literal(argument)
        if literal is not None:
            value = finfo_value(literal, attr) if kind == "finfo" else iinfo_value(literal, attr)
            return Number(value) if value is not None else None
        if (
            kind == "finfo"
            and attr in ("min", "max")
            and isinstance(argument, ast.Attribute)
            and argument.attr == "dtype"
            and dotted(argument.value)
        ):
            return DtypeLimit(dump(argument.value), attr)
        return Opaque(ast.unparse(call) + "." + attr)

    def dtype_literal(self, node: ast.expr) -> str | None:
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in self.torch_modules
        ):
            return _DTYPE_NAMES.get(node.attr)
        return None

    # constant tensors

    def constant_tensor(self, node: ast.expr) -> ConstantTensor | None:
        """`node` as a constant 0-dim tensor; None when it is anything else."""
        if not isinstance(node, ast.Call):
            return None
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _DROPPABLE_CHAIN:
            inner = self.constant_tensor(func.value)
            return self._converted(inner, func.attr, node) if inner is not None else None
        constructor = self._constructor(func)
        if constructor is None or len(node.args) != 1 or isinstance(node.args[0], ast.Starred):
            return None
        value = self.constant(node.args[0])
        if value is None:
            return None
        device_root = ""
        if constructor == "new_tensor":
            source: ast.expr = func.value  # type: ignore[attr-defined]
            dtype, device, device_root = dtype_of(source), _device_of(source), dotted(source)[0]
        elif constructor == "scalar_tensor":
            dtype, device = Dtype("literal", "float32"), None
        else:
            dtype, device = Dtype("default"), None
        for keyword in node.keywords:
            if keyword.arg == "dtype":
                dtype = self._dtype_argument(keyword.value)
            elif keyword.arg == "device":
                device, device_root = self._device_argument(keyword.value), _root(keyword.value)
                if device is None:
                    return None
            elif keyword.arg in ("requires_grad", "pin_memory"):
                if not (isinstance(keyword.value, ast.Constant) and keyword.value.value is False):
                    return None  # requires_grad=True: a leaf that gets a gradient
            else:
                return None
        return ConstantTensor(value, dtype, device, device_root)

    def _constructor(self, func: ast.expr) -> str | None:
        if isinstance(func, ast.Attribute) and func.attr == "new_tensor":
            return "new_tensor" if dotted(func.value) else None
        for name in _CONSTRUCTORS:
            if self.is_torch(func, name):
                return name
        return None

    def _dtype_argument(self, node: ast.expr) -> Dtype:
        literal = self.dtype_literal(node)
        if literal is not None:
            return Dtype("literal", literal)
        if isinstance(node, ast.Attribute) and node.attr == "dtype" and dotted(node.value):
            return dtype_of(node.value)
        return Dtype("unknown", ast.unparse(node))

    def _device_argument(self, node: ast.expr) -> str | None:
        """The device as a key ("" for one that is just not known); None if not droppable."""
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, type(None))):
            return "cpu" if node.value in (None, "cpu") else ""
        if isinstance(node, ast.Attribute) and node.attr == "device" and dotted(node.value):
            return _device_of(node.value)
        if dotted(node):
            return ""
        if (
            isinstance(node, ast.Call)
            and self.is_torch(node.func, "device")
            and not node.keywords
            and all(self._device_argument(arg) is not None for arg in node.args)
        ):
            return ""
        return None  # a call: dropping it could drop a side effect

    def _converted(
        self, tensor: ConstantTensor, method: str, call: ast.Call
    ) -> ConstantTensor | None:
        """`<constant>.to(...)`, `.cuda()`, `.cpu()`, `.type_as(x)`."""
        if method in ("cuda", "cpu"):
            return tensor if not call.keywords and len(call.args) <= 1 else None
        if method == "type_as":
            if len(call.args) != 1 or call.keywords or not dotted(call.args[0]):
                return None
            dtype = (
                dtype_of(call.args[0], checked=False) if _held_exactly(tensor)
                else Dtype("unknown")
            )
            return ConstantTensor(tensor.value, dtype, _device_of(call.args[0]),
                                  _root(call.args[0]))
        dtype, device, device_root = tensor.dtype, tensor.device, tensor.device_root
        for keyword in call.keywords:
            if keyword.arg == "dtype":
                dtype = replace(self._dtype_argument(keyword.value), checked=False)
            elif keyword.arg == "device":
                device, device_root = self._device_argument(keyword.value), _root(keyword.value)
                if device is None:
                    return None
            elif keyword.arg != "non_blocking":
                return None
        if len(call.args) > 1:
            return None
        if call.args:
            argument = call.args[0]
            literal = self.dtype_literal(argument)
            names = dotted(argument)
            if literal is not None:
                dtype = Dtype("literal", literal)
            elif len(names) > 1 and names[-1] == "dtype":  # `.to(x.dtype)`
                dtype = dtype_of(argument.value, checked=False)  # type: ignore[attr-defined]
            elif isinstance(argument, ast.Constant) or (names and "device" in names[-1].lower()):
                device, device_root = self._device_argument(argument), _root(argument)
                if device is None:
                    return None
            elif names:  # `.to(other_tensor)`: its dtype and device
                dtype = dtype_of(argument, checked=False)
                device, device_root = _device_of(argument), names[0]
            else:
                return None
        if dtype != tensor.dtype and not _held_exactly(tensor):
            dtype = Dtype("unknown")  # rounded twice: by the constructor, then by `.to`
        return ConstantTensor(tensor.value, dtype, device, device_root)

    # fill sites

    def fill_sites(self, call: ast.Call) -> list[FillSite]:
        """The fill operands of `call`, if it is a masked fill or a `torch.where`."""
        if any(isinstance(arg, ast.Starred) for arg in call.args) or any(
            keyword.arg is None for keyword in call.keywords
        ):
            return []
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _FILL_METHODS:
            if isinstance(func.value, ast.Name) and func.value.id in self.torch_modules:
                return self._function_masked_fill(call)
            return _method_masked_fill(call)
        if self.is_torch(func, "masked_fill"):
            return self._function_masked_fill(call)
        if self.is_torch(func, "where") and len(call.args) == 3 and not call.keywords:
            first, second = call.args[1], call.args[2]
            return [
                FillSite("where", first, ArgRef(index=1), second),
                FillSite("where", second, ArgRef(index=2), first),
            ]
        return []

    def _function_masked_fill(self, call: ast.Call) -> list[FillSite]:
        arguments = _bind(call, ("input", "mask", "value"))
        if arguments is None or "input" not in arguments or "value" not in arguments:
            return []
        (target, _), (operand, ref) = arguments["input"], arguments["value"]
        return [FillSite("masked_fill", operand, ref, target)]

    def is_scalar_like(self, node: ast.expr) -> bool:
        """A Python number or 0-dim constant: `torch.where` promotes it like the operand."""
        if self.constant(node) is not None:
            return True
        return isinstance(node, ast.Call) and (
            self._constructor(node.func) is not None or self.constant_tensor(node) is not None
        )


def _method_masked_fill(call: ast.Call) -> list[FillSite]:
    arguments = _bind(call, ("mask", "value"))
    if arguments is None or "value" not in arguments:
        return []
    operand, ref = arguments["value"]
    return [FillSite("masked_fill", operand, ref, call.func.value)]  # type: ignore[attr-defined]


def _bind(call: ast.Call, names: Sequence[str]) -> dict[str, tuple[ast.expr, ArgRef]] | None:
    if len(call.args) > len(names):
        return None
    bound = {names[i]: (arg, ArgRef(index=i)) for i, arg in enumerate(call.args)}
    for keyword in call.keywords:
        if keyword.arg not in names or keyword.arg in bound:
            return None
        bound[keyword.arg] = (keyword.value, ArgRef(keyword=keyword.arg))
    return bound


def _held_exactly(tensor: ConstantTensor) -> bool:
    """Whether the tensor holds its constant unrounded."""
    value, dtype = tensor.value, tensor.dtype
    if not isinstance(value, Number):
        return False
    if dtype.kind == "default":
        return holds_exactly(value.value, default_dtype(value.value))
    return dtype.kind == "literal" and holds_exactly(value.value, dtype.name)


def _root(node: ast.expr) -> str:
    names = dotted(node)
    return names[0] if names else ""


def _device_of(node: ast.expr) -> str:
    return dump(ast.Attribute(value=node, attr="device", ctx=ast.Load()))


def function_bindings(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Counter[str]:
    """Names bound in the function's own scope (not in nested ones), and how often."""
    counts: Counter[str] = Counter()
    for node in _own_nodes(function):  # its parameters included
        counts.update(_bound_here(node))
    return counts


def _bound_here(node: ast.AST) -> list[str]:
    """The names this node binds in the scope it is in."""
    if type(node) not in _BINDING_TYPES:
        return []  # most nodes: answered without the checks below
    if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
        return [node.id]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.arguments):
        every = [*node.posonlyargs, *node.args, *node.kwonlyargs]
        every += [arg for arg in (node.vararg, node.kwarg) if arg is not None]
        return [arg.arg for arg in every]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(alias.asname or alias.name).split(".")[0] for alias in node.names]
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return list(node.names)
    if isinstance(node, ast.ExceptHandler) and node.name:
        return [node.name]
    if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
        return [node.name]
    if isinstance(node, ast.MatchMapping) and node.rest:
        return [node.rest]
    return []


_BINDING_TYPES = frozenset({
    ast.Name, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.arguments, ast.Import,
    ast.ImportFrom, ast.Global, ast.Nonlocal, ast.ExceptHandler, ast.MatchAs, ast.MatchStar,
    ast.MatchMapping,
})

# -- safety ---------------------------------------------------------------------------------


def verdict(site: FillSite, tensor: ConstantTensor, facts: ModuleFacts) -> Verdict | None:
    """How safe it is to fill with the constant itself; None: leave this operand alone."""
    if site.function == "where":
        if facts.is_scalar_like(site.target):
            return None  # both operands constant: the result dtype would follow the scalars
        return _where_verdict(site, tensor)
    return _masked_fill_verdict(site, tensor)


def _masked_fill_verdict(site: FillSite, tensor: ConstantTensor) -> Verdict:
    # masked_fill reads a 0-dim value tensor with `.item()` and converts that number to the
    # filled tensor's dtype exactly as it converts a Python scalar (overflow check
    # included), so the two agree whenever the constant tensor holds the constant unrounded.
    value, dtype = tensor.value, tensor.dtype
    target = dump(site.target) if dotted(site.target) else None
    target_text = ast.unparse(site.target)
    if isinstance(value, Opaque):
        return Verdict(Safety.UNSAFE, f"{value.text} is defined elsewhere: right only if it is "
                                      f"a Python number {_exact_in(dtype, target)}")
    if isinstance(value, DtypeLimit):
        if value.tensor == target and dtype.is_of(target):
            return Verdict(Safety.SAFE)
        if value.tensor == target and dtype.kind == "default":
            return Verdict(Safety.UNSAFE, "torch.tensor rounds the float64 limit to float32 "
                                          "(-inf): a float64 tensor would get the finite limit")
        return Verdict(Safety.UNSAFE, f"the limit of another dtype may not fit {target_text}")
    number = value.value
    if dtype.kind == "default":
        if holds_exactly(number, default_dtype(number)):
            return Verdict(Safety.SAFE)
        return Verdict(Safety.UNSAFE, "torch.tensor rounds {constant} to float32: a float64 "
                                      "tensor would get the exact value")
    if dtype.kind == "literal":
        # `.item()` gives a number of the tensor's kind, and a negative int converts to an
        # unsigned dtype with wraparound where a negative float raises.
        if holds_exactly(number, dtype.name) and (
            number >= 0 or default_dtype(number) in _same_kind(dtype.name)
        ):
            return Verdict(Safety.SAFE)
        return Verdict(Safety.UNSAFE, f"dtype=torch.{dtype.name} rounds {{constant}}: the "
                                      "fill value changes")
    if dtype.is_of(target) and not dtype.checked:
        if _cast_like_scalar(number):
            return Verdict(Safety.SAFE)
        return Verdict(Safety.UNSAFE, f"if {target_text} is an integer tensor, `.to` wraps "
                                      "{constant} where masked_fill raises")
    if dtype.is_of(target):
        # Rounded to the target's own dtype, the value rounds the same either way; but a
        # scalar that overflows float16 raises where the float16 tensor held -inf.
        if not math.isfinite(number) or abs(number) <= FLOAT16_MAX:
            return Verdict(Safety.SAFE)
        return Verdict(Safety.UNSAFE, f"raises for a float16 {target_text}: {{constant}} "
                                      "overflows float16, where the float16 tensor held -inf")
    if holds_in_every_dtype(number):
        return Verdict(Safety.SAFE)
    return Verdict(Safety.UNSAFE, "the constant tensor's dtype is not known here and may "
                                  "round {constant}")


def _cast_like_scalar(number: Scalar) -> bool:
    """A cast to any dtype gives what masked_fill makes of the scalar (no overflow)."""
    if isinstance(number, float):
        return number.is_integer() and 0 <= number <= 127
    return -128 <= number <= 127  # ints wrap into unsigned dtypes both ways


def _exact_in(dtype: Dtype, target: str | None) -> str:
    """What the constant must be for the tensor to hold it unrounded, as words."""
    if dtype.kind == "default":
        return "that float32 holds exactly"
    if dtype.kind == "literal":
        return f"that torch.{dtype.name} holds exactly"
    if dtype.is_of(target):
        return "within float16 range (|x| <= 65504) or infinite"
    return "that any dtype holds exactly"


def _where_verdict(site: FillSite, tensor: ConstantTensor) -> Verdict:
    # torch.where promotes a 0-dim tensor operand against the other operand, and only a
    # dtype that matches the other operand keeps the result dtype the same for every
    # operand we can imagine (a 0-dim float16 loss promotes to float32 with a default
    # float32 constant, but stays float16 with a Python scalar).
    value, dtype = tensor.value, tensor.dtype
    other = dump(site.target) if dotted(site.target) else None
    other_text = ast.unparse(site.target)
    same_dtype = dtype.is_of(other) if other else False
    if isinstance(value, Opaque):
        return Verdict(Safety.UNSAFE, f"{value.text} is defined elsewhere: right only if it is "
                                      "a Python number")
    if isinstance(value, DtypeLimit):
        if not (same_dtype and value.tensor == other):
            return Verdict(Safety.UNSAFE, "the result dtype or value may change")
    elif isinstance(value.value, bool) and (
        same_dtype or dtype in (Dtype("default"), Dtype("literal", "bool"))
    ):
        pass  # bool is the lowest category: it never decides a result dtype
    elif same_dtype:
        number = value.value
        if not dtype.checked and not _cast_like_scalar(number):
            return Verdict(Safety.UNSAFE, f"if {other_text} is an integer tensor, `.to` wraps "
                                          "{constant} where torch.where promotes or raises")
        if isinstance(number, float) and math.isfinite(number):
            return Verdict(Safety.UNSAFE, f"the result becomes float32 if {other_text} is an "
                                          "integer tensor")
        if number in (0, 1):
            return Verdict(Safety.UNSAFE, f"the result becomes int64 if {other_text} is a "
                                          "bool tensor")
    elif dtype.kind == "default":
        return Verdict(Safety.UNSAFE, f"the result dtype changes if {other_text} is a 0-dim "
                                      "tensor of another dtype (a float16 loss, say): "
                                      "torch.where promotes 0-dim tensors, not scalars")
    elif dtype.kind == "literal":
        return Verdict(Safety.UNSAFE, f"dtype=torch.{dtype.name} can decide the result dtype "
                                      "of torch.where; a scalar cannot")
    else:
        return Verdict(Safety.UNSAFE, f"the constant's dtype is not that of {other_text}: it "
                                      "may round the constant or decide the result dtype")
    if tensor.device not in (None, "cpu", _device_key(site.target)):
        return Verdict(Safety.UNSAFE, "device= decides the result device if every operand is "
                                      "0-dim")
    return Verdict(Safety.SAFE)


def _device_key(node: ast.expr) -> str | None:
    return _device_of(node) if dotted(node) else None


# -- the two-statement form -----------------------------------------------------------------


@dataclass(frozen=True)
class LocalPlan:
    """`name = torch.tensor(C, ...)` whose every use is a fill operand in its function."""

    name: str
    line: int  # of the assignment
    safety: Safety
    message: str  # "{constant}" stands for the constant as written
    use_lines: tuple[tuple[int, int], ...]  # the fill calls using it, for suppressions


def plan_locals(tree: ast.Module, facts: ModuleFacts) -> dict[int, LocalPlan]:
    """The tensor locals that can be replaced by their constant, by assignment line."""
    plans: dict[int, LocalPlan] = {}
    lines = [node.lineno for node in nodes_of(tree, ast.Assign)
             if _may_be_constant_tensor(node.value)]
    for function in _functions_holding(tree, lines):
        for plan in _function_plans(function, facts):
            plans[plan.line] = plan
    return plans


def plan_unused_reads(
    tree: ast.Module, facts: ModuleFacts, plans: dict[int, LocalPlan]
) -> dict[int, str]:
    """`device = logits.device` locals read only by constant tensors that may be dropped.

    By assignment line. Whether they really end up unused is known only after the rewrite.
    """
    found: dict[int, str] = {}
    lines = [*plans, *(  # where constant tensors may be dropped: planned locals, fill calls
        node.lineno for node in nodes_of(tree, ast.Call)
        if any(map(_may_be_constant_tensor, [*node.args, *(k.value for k in node.keywords)]))
    )]
    for function in _functions_holding(tree, lines):
        found.update(_unused_reads(function, facts, plans))
    return found


def _functions_holding(
    tree: ast.Module, lines: list[int]
) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions (nested ones too) whose lines include one of `lines`."""
    if not lines:
        return []
    lines = sorted(lines)
    return [
        function for function in walk(tree)
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
        and (index := bisect.bisect_left(lines, function.lineno)) < len(lines)
        and lines[index] <= (function.end_lineno or function.lineno)
    ]


def _unused_reads(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    facts: ModuleFacts,
    plans: dict[int, LocalPlan],
) -> dict[int, str]:
    droppable: set[int] = set()  # ids of the nodes inside droppable constant tensors
    for node in _own_nodes(function):
        if isinstance(node, ast.Assign) and node.lineno in plans:
            droppable.update(map(id, ast.walk(node.value)))
        elif isinstance(node, ast.Call):
            for site in facts.fill_sites(node):
                if facts.constant_tensor(site.operand) is not None:
                    droppable.update(map(id, ast.walk(site.operand)))
    if not droppable:
        return {}
    bindings = function_bindings(function)
    found: dict[int, str] = {}
    for node in _own_nodes(function):
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and dotted(node.value)
            and bindings[node.targets[0].id] == 1
        ):
            continue
        name = node.targets[0].id
        loads = [
            use for use in _own_nodes(function)
            if isinstance(use, ast.Name) and use.id == name and isinstance(use.ctx, ast.Load)
        ]
        if (
            loads
            and all(id(use) in droppable for use in loads)
            and not _used_in_nested_scope(function, name)
            and _alone_and_followed(function, node)
        ):
            found[node.lineno] = name
    return found


def _function_plans(
    function: ast.FunctionDef | ast.AsyncFunctionDef, facts: ModuleFacts
) -> Iterator[LocalPlan]:
    assignments = [
        statement for statement in _own_nodes(function)
        if isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and isinstance(statement.value, ast.Call)
    ]
    if not assignments:
        return
    bindings = function_bindings(function)
    tensors = {
        assignment.targets[0].id: tensor  # type: ignore[attr-defined]
        for assignment in assignments
        if (tensor := facts.constant_tensor(assignment.value)) is not None
    }
    for assignment in assignments:
        name = assignment.targets[0].id  # type: ignore[attr-defined]
        tensor = facts.constant_tensor(assignment.value)
        if tensor is None or bindings[name] != 1:
            continue
        plan = _plan(function, assignment, name, tensor, facts, set(tensors))
        if plan is not None:
            yield plan


def _plan(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    assignment: ast.Assign,
    name: str,
    tensor: ConstantTensor,
    facts: ModuleFacts,
    tensor_locals: set[str],
) -> LocalPlan | None:
    if not _alone_and_followed(function, assignment) or _used_in_nested_scope(function, name):
        return None
    end = assignment.end_lineno or assignment.lineno
    uses = [
        node for node in _own_nodes(function)
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)
    ]
    if not uses or any(use.lineno <= end for use in uses):
        return None
    # The constant is evaluated where it is used instead of where it was assigned, so the
    # names it reads must not change in between; a dtype or device read from a variable
    # that changes is no longer known at the uses.
    changed = _changed_before_a_use(function, assignment, uses)
    data = _constructor_data_ast(assignment.value)
    if any(isinstance(node, ast.Name) and node.id in changed for node in ast.walk(data)):
        return None
    if tensor.dtype.root in changed:
        tensor = replace(tensor, dtype=Dtype("unknown"))
    if tensor.device_root in changed:
        tensor = replace(tensor, device="")
    sites = _sites_using(function, name, facts)
    if len(sites) != len(uses):
        return None  # used some other way too
    if any(isinstance(site.target, ast.Name) and site.target.id in tensor_locals
           for site, _ in sites if site.function == "where"):
        return None  # torch.where(c, one, zero): both would become scalars
    verdicts = [verdict(site, tensor, facts) for site, _ in sites]
    if any(v is None for v in verdicts):
        return None
    unsafe = [v for v in verdicts if v is not None and v.safety is Safety.UNSAFE]
    count = len(uses)
    message = (f"{name} is a per-call tensor used only as a fill value: fill with "
               f"{{constant}} directly ({count} use{'s' if count > 1 else ''}) and drop it")
    safety = Safety.SAFE
    if unsafe:
        safety = Safety.UNSAFE
        message += f" ({unsafe[0].reason})"
    return LocalPlan(name, assignment.lineno, safety, message, tuple(lines for _, lines in sites))


def _changed_before_a_use(
    function: ast.AST, assignment: ast.Assign, uses: Sequence[ast.Name]
) -> set[str]:
    """The names bound again after the assignment and before one of its uses runs.

    A use in the statement that rebinds a name (`logits = logits.masked_fill(m, fill)`)
    still sees the old value; a loop around a use and a later binding, without the
    assignment, runs the use again after the binding.
    """
    end = assignment.end_lineno or assignment.lineno
    last_use = max(use.lineno for use in uses)
    stores = [
        node for node in _own_nodes(function)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.lineno > end
    ]
    changed = {node.id for node in stores if node.lineno < last_use}
    for loop in _own_nodes(function):
        if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
            continue
        inside = set(map(id, ast.walk(loop)))
        if id(assignment) not in inside and any(id(use) in inside for use in uses):
            changed.update(node.id for node in stores if id(node) in inside)
    return changed


def _constructor_data_ast(node: ast.expr) -> ast.expr:
    """The `C` of `torch.tensor(C, ...)`, also through `.to(...)` and friends."""
    while (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _DROPPABLE_CHAIN
    ):
        node = node.func.value
    return node.args[0]  # type: ignore[attr-defined]


def _sites_using(
    function: ast.AST, name: str, facts: ModuleFacts
) -> list[tuple[FillSite, tuple[int, int]]]:
    found: list[tuple[FillSite, tuple[int, int]]] = []
    for node in _own_nodes(function):
        if isinstance(node, ast.Call):
            for site in facts.fill_sites(node):
                if isinstance(site.operand, ast.Name) and site.operand.id == name:
                    found.append((site, (node.lineno, node.end_lineno or node.lineno)))
    return found


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """Every node of a function, not descending into nested functions, lambdas or classes."""
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))


def _used_in_nested_scope(function: ast.AST, name: str) -> bool:
    return any(
        isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))
        and any(isinstance(inner, ast.Name) and inner.id == name for inner in ast.walk(node))
        for node in _own_nodes(function)
    )


def _alone_and_followed(function: ast.AST, assignment: ast.Assign) -> bool:
    """The assignment has its line to itself and is not the last statement of its block."""
    for node in [function, *_own_nodes(function)]:
        for block_name in ("body", "orelse", "finalbody"):
            block = getattr(node, block_name, None)
            if isinstance(block, list) and assignment in block:
                index = block.index(assignment)
                if index == len(block) - 1:
                    return False
                neighbours = block[max(index - 1, 0) : index + 2]
                return all(
                    other is assignment or other.lineno != assignment.lineno
                    for other in neighbours
                )
    return False


# -- the codemod ----------------------------------------------------------------------------

_FILL_CALL_NAMES = frozenset({"masked_fill", "masked_fill_", "where"})


@dataclass(frozen=True)
class _LiteralUse:
    """A fill operand that is (or became) a number written out: a candidate for hoisting."""

    key: tuple[str, str]  # (type, repr) of the value
    value: Scalar
    node: cst.BaseExpression  # as placed in the new tree
    original: cst.CSTNode  # in the tree as read, to locate the change


class HoistMaskConstant(TorchfixCodemod):
    """Fill masks with a Python scalar instead of a new constant tensor on every call.

    ## What it does
    Rewrites `x.masked_fill(mask, torch.tensor(C, device=..., dtype=...))` into
    `x.masked_fill(mask, C)`, where `C` is a constant: a number, `float("-inf")`,
    `math.inf`, `torch.finfo(...).min`, or an UPPER_CASE name or attribute. The same goes
    for `masked_fill_`, `torch.masked_fill`, `torch.as_tensor(C)`, `torch.scalar_tensor(C)`,
    `x.new_tensor(C)`, `torch.tensor(C).to(...)` and the constant operand of
    `torch.where(cond, a, b)`. A local assigned such a tensor and used only as fill value
    in its function goes, and its uses take `C`; so does a `device = x.device` local that
    only those constant tensors read, and a `from torch import tensor` left unused. With
    `--unsafe-fixes`, a large fill value (`|C| >= 1000`) that fills three masks or more in
    a module becomes one module-level UPPER_CASE constant (`MASK_FILL_VALUE = -1e9`).

    ## Why
    `torch.tensor(C, device=x.device)` runs on every call, usually in the hot path of a
    forward pass: it allocates a tensor and, on a GPU, copies it from the host; and
    `masked_fill` then reads a 0-dim value tensor back with `.item()`, which on a GPU is a
    synchronization. `masked_fill` and `torch.where` take Python scalars, which cost none
    of this.

    ## Example
    ```python
    def forward(self, logits, action_mask):
        return logits.masked_fill(~action_mask, torch.tensor(-1e8, device=logits.device))
    ```
    becomes
    ```python
    def forward(self, logits, action_mask):
        return logits.masked_fill(~action_mask, -1e8)
    ```

    ## Fix safety
    Checked against torch 2.13 (CPU; the tests compare both forms for every dtype):
    `masked_fill` reads a 0-dim value tensor with `.item()` and converts that number to the
    filled tensor's dtype exactly as it converts a Python scalar, overflow check included.
    So the fix is **safe** when the constant tensor holds `C` unrounded and `.item()` gives
    a number of `C`'s kind: a float exact in float32 without `dtype=` (`-1e9`, `-1e8`,
    `-inf`; not `0.1` or `-1e30`, which a float64 tensor would then get unrounded), a
    `dtype=` that holds `C` exactly, or `dtype=x.dtype` of the tensor filled with
    `|C| <= 65504` or infinite. `C` beyond float16 with `dtype=x.dtype` (or
    `x.new_tensor(C)`) is **unsafe**: `torch.tensor(-1e9, dtype=torch.float16)` is `-inf`,
    while `x_fp16.masked_fill(m, -1e9)` raises "value cannot be converted to type
    c10::Half without overflow" (`torch.tensor(-1e9)` without `dtype=` raises there too,
    before and after). `torch.finfo(x.dtype).min` is safe with `dtype=x.dtype` and unsafe
    without (float32 rounds the float64 limit to `-inf`). A `.to(x)` cast wraps into
    integer dtypes where the scalar raises, so only small integers are safe through it.

    `torch.where` never raises on float overflow, but it promotes a 0-dim tensor against
    the other operand where it would not promote a scalar: with a default-dtype constant,
    a 0-dim float16 operand (a loss, say) gives float32 before the fix and float16 after.
    So a `torch.where` fix is safe only with `dtype=` of the other operand and an integer
    other than 0 and 1 (a bool operand would turn int64), an infinity or NaN, or
    `torch.finfo(other.dtype)`; or with a bool constant. A finite float is unsafe even
    then (an integer operand would turn the result float32). `device=` is dropped only
    when it is the other operand's device or the CPU; code that raised before (a CUDA
    constant beside CPU tensors, a constant that did not fit its dtype) may work after.

    Everything else is unsafe: UPPER_CASE constants defined in another module (their value
    is not known here), `dtype=` of some other tensor or of a variable that changes before
    a use, an explicit `dtype=` that rounds `C`. Constants with `requires_grad=True`,
    tensors of non-constant data (`torch.tensor(values)`, `torch.tensor(self.bias)`), a
    `torch.where` whose two operands are both constants, constant tensors used any other
    way, constructors with a comment inside, and locals used other than as fill values or
    bound more than once are left alone.

    Hoisting is always unsafe: choosing a name is a human decision, and TorchScript cannot
    read module-level floats (files that mention `jit` or `script` are never hoisted).
    """

    name = "hoist-mask-constant"
    summary = "Fill masks with a Python scalar instead of a per-call torch.tensor constant."
    triggers = (b"masked_fill", b"where(")
    fix_safety = "safe, unsafe"
    options = (
        Option("hoist-min-count", 3, "Hoist a large fill value into a module constant when "
                                     "it is written out this many times (0: never)."),
    )

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        lines: set[int] = set()
        name_operands: dict[str, list[int]] = {}  # fill operand name → lines of the fills
        tensor_assignments: dict[str, list[int]] = {}
        read_by_constructors: set[str] = set()
        read_assignments: dict[str, list[int]] = {}  # `device = x.device` and the like
        calls: list[tuple[str, ast.Call]] = []
        fill_names = set(_FILL_CALL_NAMES)
        for node in walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else (
                    func.id if isinstance(func, ast.Name) else "")
                if node.args and (name in _FILL_CALL_NAMES or isinstance(func, ast.Name)):
                    calls.append((name, node))
            elif isinstance(node, ast.ImportFrom) and node.module == "torch":
                fill_names.update(  # `from torch import where as masked_where`
                    alias.asname for alias in node.names
                    if alias.asname and alias.name in _FILL_CALL_NAMES
                )
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name
            ):
                target = node.targets[0].id
                if _may_be_constant_tensor(node.value):
                    tensor_assignments.setdefault(target, []).append(node.lineno)
                    read_by_constructors.update(_names_in(node.value))
                elif dotted(node.value):
                    read_assignments.setdefault(target, []).append(node.lineno)
        for name, node in calls:
            if name not in fill_names:
                continue
            for operand in [*node.args[1:], *(k.value for k in node.keywords)]:
                if isinstance(operand, ast.Name):
                    name_operands.setdefault(operand.id, []).append(node.lineno)
                elif _may_be_constant_tensor(operand):
                    lines.add(node.lineno)
                    read_by_constructors.update(_names_in(operand))
                elif _is_large_literal(operand):
                    lines.add(node.lineno)
        for name in name_operands.keys() & tensor_assignments.keys():
            lines.update(name_operands[name])
            lines.update(tensor_assignments[name])
        for name in read_by_constructors & read_assignments.keys():
            lines.update(read_assignments[name])
        return lines

    def __init__(self, context: CodemodContext, settings: CodemodSettings | None = None) -> None:
        super().__init__(context, settings)
        tree = self.settings.python_tree
        # Without CPython's parse there are no facts to decide with: nothing is changed.
        self._facts = ModuleFacts.of(tree) if tree is not None else None
        self._plans = plan_locals(tree, self._facts) if tree is not None and self._facts else {}
        self._plan_names = {plan.name for plan in self._plans.values()}
        self._unused_reads = (
            plan_unused_reads(tree, self._facts, self._plans)
            if tree is not None and self._facts else {}
        )
        self._frames: list[_Frame] = [_Frame()]
        # Statements to remove once their block is left, by id (the values keep them alive,
        # so that no other node can get the same id meanwhile).
        self._dropped: dict[int, cst.CSTNode] = {}
        self._literal_uses: list[_LiteralUse] = []

    # -- scopes ----------------------------------------------------------------------------

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._frames.append(_Frame())

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.FunctionDef:
        frame = self._frames.pop()
        if not frame.reads:
            return updated_node
        return self._drop_unused_reads(frame, updated_node)

    def _drop_unused_reads(self, frame: _Frame, function: cst.FunctionDef) -> cst.FunctionDef:
        """`device = logits.device` goes when the constant tensors were its only readers."""
        unused = {
            id(updated): (name, original)
            for name, (original, updated) in frame.reads.items()
            if not _reads_name(function.body, name, updated)
        }
        # A block may not lose its last statement.
        for block in m.findall(function.body, m.IndentedBlock()):
            statements = block.body  # type: ignore[attr-defined]
            if all(id(statement) in unused for statement in statements):
                for statement in statements:
                    unused.pop(id(statement), None)
        drop: dict[int, cst.CSTNode] = {}
        for key, (name, original) in unused.items():
            updated = frame.reads[name][1]
            self.fix(original, updated, updated,
                     f"{name} is read only by the constant tensors dropped here: drop it too",
                     Safety.SAFE, on_apply=lambda key=key, updated=updated: drop.update(
                         {key: updated}))
        if not drop:
            return function
        return function.with_changes(body=function.body.visit(_DropStatements(drop)))

    # -- fill sites ------------------------------------------------------------------------

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if self._facts is None or not self._looks_like_fill_call(original_node):
            return updated_node
        parsed = _to_ast(original_node)
        if parsed is None:
            return updated_node
        sites = self._facts.fill_sites(parsed)
        if not sites:
            return updated_node
        args = list(updated_node.args)
        for site in sites:
            index = _arg_index(original_node, site.ref)
            if index is None:
                continue
            new_value = self._new_operand(site, original_node.args[index].value,
                                          args[index].value)
            if new_value is not args[index].value:
                args[index] = args[index].with_changes(value=new_value)
            self._note_literal(args[index].value, original_node.args[index].value)
        return updated_node.with_changes(args=args)

    def _looks_like_fill_call(self, call: cst.Call) -> bool:
        func = call.func
        if isinstance(func, cst.Attribute):
            return func.attr.value in _FILL_CALL_NAMES
        return (
            isinstance(func, cst.Name)
            and self._facts is not None
            and self._facts.torch_functions.get(func.value) in ("masked_fill", "where")
        )

    def _new_operand(
        self, site: FillSite, original: cst.BaseExpression, updated: cst.BaseExpression
    ) -> cst.BaseExpression:
        assert self._facts is not None
        if isinstance(site.operand, ast.Name):
            replacement = self._frames[-1].locals.get(site.operand.id)
            return replacement.deep_clone() if replacement is not None else updated
        tensor = self._facts.constant_tensor(site.operand)
        if tensor is None or m.findall(original, m.Comment()):
            return updated  # a comment inside the constructor would be lost
        judged = verdict(site, tensor, self._facts)
        if judged is None:
            return updated
        constant = _constructor_data(updated)
        message = ("fill with {constant} directly: the constant tensor is allocated (and "
                   "copied to the device) on every call")
        if judged.reason:
            message += f" ({judged.reason})"
        return self.fix(original, updated, constant, _spelled(message, constant), judged.safety,
                        on_apply=lambda: self._forget_constructor_import(updated))

    # -- the two-statement form ------------------------------------------------------------

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        if len(self._frames) < 2 or not (self._plan_names or self._unused_reads):
            return updated_node
        assignment = _tensor_local_assignment(updated_node)
        if assignment is None:
            return updated_node
        if assignment[0] in self._unused_reads.values():
            if self._unused_reads.get(self._first_line(original_node)) == assignment[0]:
                self._frames[-1].reads[assignment[0]] = (original_node, updated_node)
            return updated_node
        if assignment[0] not in self._plan_names or not isinstance(assignment[1], cst.Call):
            return updated_node
        if m.findall(assignment[1], m.Comment()):
            return updated_node  # a comment inside the constructor would be lost
        plan = self._plans.get(self._first_line(original_node))
        if plan is None or plan.name != assignment[0]:
            return updated_node
        suppressions = self.settings.suppressions
        if any(suppressions.suppresses(self.name, first, last) for first, last in plan.use_lines):
            return updated_node
        frame = self._frames[-1]
        constant = _constructor_data(assignment[1])

        def drop() -> None:
            frame.locals[plan.name] = constant
            self._dropped[id(updated_node)] = updated_node
            self._forget_constructor_import(assignment[1])

        return self.fix(original_node, updated_node, updated_node,
                        _spelled(plan.message, constant), plan.safety, on_apply=drop)

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        if not self._dropped or not any(id(s) in self._dropped for s in updated_node.body):
            return updated_node
        return _without(updated_node, self._dropped)

    def _forget_constructor_import(self, tensor: cst.BaseExpression) -> None:
        """`from torch import tensor` goes if the dropped call was its last use."""
        func = _constructor_call(tensor).func
        if isinstance(func, cst.Name) and self._facts is not None:
            imported = self._facts.torch_functions.get(func.value)
            if imported is not None:
                RemoveImportsVisitor.remove_unused_import(
                    self.context, "torch", imported,
                    func.value if func.value != imported else None,
                )

    def _first_line(self, statement: cst.CSTNode) -> int:
        focus = self.settings.focus
        span = focus.spans.get(statement) if focus is not None else None
        return span[0] if span is not None else self.position(statement).start.line

    # -- hoisting ----------------------------------------------------------------------------

    def _note_literal(self, node: cst.BaseExpression, original: cst.CSTNode) -> None:
        if len(self._frames) < 2:
            return  # module or class level: the constant might not exist yet when it runs
        value = _number_written_out(node)
        if value is None or isinstance(value, bool):
            return
        if not math.isfinite(value) or abs(value) < HOIST_MIN_MAGNITUDE:
            return
        key = (type(value).__name__, repr(value))
        self._literal_uses.append(_LiteralUse(key, value, node, original))

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        minimum = self.option("hoist-min-count")
        if (
            not self._literal_uses
            or minimum <= 0
            or self._facts is None
            or self._facts.uses_torchscript
        ):
            return updated_node
        groups: dict[tuple[str, str], list[_LiteralUse]] = {}
        for use in self._literal_uses:
            groups.setdefault(use.key, []).append(use)
        taken = set(self._facts.identifiers)
        replacements: dict[int, str] = {}
        constants: list[cst.SimpleStatementLine] = []
        for uses in groups.values():
            if len(uses) < minimum:
                continue
            name = _fresh_name("MASK_FILL_VALUE" if uses[0].value < 0 else "LARGE_FILL_VALUE",
                               taken)
            text = cst.Module(body=[]).code_for_node(uses[0].node)
            applied = [
                use for use in uses
                if self.fix(use.original, use.node, name,
                            f"{text} fills {len(uses)} masks in this module: hoist "
                            f"it into the module constant {name}", Safety.UNSAFE) is name
            ]
            if applied:
                taken.add(name)
                replacements.update((id(use.node), name) for use in applied)
                constants.append(_constant_statement(name, uses[0].node))
        if not replacements:
            return updated_node
        replaced = updated_node.visit(_ReplaceNodes(replacements))
        return _insert_after_imports(replaced, constants)  # type: ignore[arg-type]


@dataclass
class _Frame:
    """What the codemod knows about the function it is in."""

    # tensor locals dropped so far → the constant their uses take
    locals: dict[str, cst.BaseExpression] = field(default_factory=dict)
    # `device = x.device` locals that may end up unused → (statement as read, as updated)
    reads: dict[str, tuple[cst.CSTNode, cst.CSTNode]] = field(default_factory=dict)


class _DropStatements(cst.CSTTransformer):
    """Remove the statements with these ids from their blocks."""

    def __init__(self, statements: dict[int, cst.CSTNode]) -> None:
        super().__init__()
        self._statements = statements

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        # The statements are known by their ids in the tree visited, not in the new one.
        return _without(updated_node, self._statements, original_node.body)


def _without(
    block: cst.IndentedBlock,
    dropped: dict[int, cst.CSTNode],
    known_as: Sequence[cst.BaseStatement] | None = None,
) -> cst.IndentedBlock:
    """The block without the statements in `dropped` (which this removes from it).

    `known_as`: the statements as `dropped` knows them, when not those of `block`.
    """
    body: list[cst.BaseStatement] = []
    carried: list[cst.EmptyLine] | None = None  # None: nothing was dropped just before
    for statement, key in zip(block.body, known_as or block.body, strict=True):
        if dropped.pop(id(key), None) is not None:
            # Its comments and blank lines stay, above the statement that follows.
            carried = [*(carried or []), *statement.leading_lines]  # type: ignore[union-attr]
            continue
        if carried is not None:
            lines = _merged(carried, list(statement.leading_lines))  # type: ignore[union-attr]
            if not body:
                # Now first in its block: blank lines would open the block.
                while lines and lines[0].comment is None:
                    lines.pop(0)
            statement = statement.with_changes(leading_lines=lines)
            carried = None
        body.append(statement)
    return block.with_changes(body=body)


def _merged(first: list[cst.EmptyLine], second: list[cst.EmptyLine]) -> list[cst.EmptyLine]:
    """Both lists of lines, with no more blank lines in a row than either had."""
    def longest_run(lines: list[cst.EmptyLine]) -> int:
        longest = run = 0
        for line in lines:
            run = run + 1 if line.comment is None else 0
            longest = max(longest, run)
        return longest

    limit = max(longest_run(first), longest_run(second))
    merged: list[cst.EmptyLine] = []
    run = 0
    for line in [*first, *second]:
        run = run + 1 if line.comment is None else 0
        if run <= limit:
            merged.append(line)
    return merged


def _reads_name(body: cst.CSTNode, name: str, assignment: cst.CSTNode) -> bool:
    """Whether `name` is read anywhere in `body` but in its own assignment.

    Parameters of nested functions count as reads: that only ever keeps the assignment.
    """
    finder = _NameReads(name, assignment)
    body.visit(finder)
    return finder.found


class _NameReads(cst.CSTVisitor):
    def __init__(self, name: str, assignment: cst.CSTNode) -> None:
        super().__init__()
        self._name = name
        self._assignment = assignment
        self.found = False

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        if node is self._assignment:
            assign = node.body[0]
            if isinstance(assign, cst.Assign):
                assign.value.visit(self)  # its own target is no read
            return False
        return not self.found

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)  # `x.device`: the attribute name is no variable
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)  # `device=device`: the keyword is no variable
        return False

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self._name:
            self.found = True


class _ReplaceNodes(cst.CSTTransformer):
    """Replace the nodes with these ids by a name."""

    def __init__(self, names: dict[int, str]) -> None:
        super().__init__()
        self._names = names

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> cst.CSTNode:
        name = self._names.get(id(original_node))
        return cst.Name(name) if name is not None else updated_node  # type: ignore[return-value]


def _to_ast(node: cst.CSTNode) -> ast.Call | None:
    code = cst.Module(body=[]).code_for_node(node)
    try:
        parsed = ast.parse(f"(\n{code}\n)", mode="eval").body
    except SyntaxError:
        return None
    return parsed if isinstance(parsed, ast.Call) else None


def _may_be_constant_tensor(node: ast.expr) -> bool:
    """A cheap first look: a call to something named like a tensor constructor."""
    while (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _DROPPABLE_CHAIN
    ):
        node = node.func.value
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else (
        func.id if isinstance(func, ast.Name) else "")
    return name in _CONSTRUCTORS or name == "new_tensor"


def _names_in(node: ast.expr) -> set[str]:
    return {inner.id for inner in ast.walk(node) if isinstance(inner, ast.Name)}


def _is_large_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool)
        and math.isfinite(node.value)
        and abs(node.value) >= HOIST_MIN_MAGNITUDE
    )


def _spelled(message: str, constant: cst.BaseExpression) -> str:
    return message.replace("{constant}", cst.Module(body=[]).code_for_node(constant))


def _arg_index(call: cst.Call, ref: ArgRef) -> int | None:
    positional = 0
    for index, arg in enumerate(call.args):
        if arg.keyword is None:
            if positional == ref.index:
                return index
            positional += 1
        elif arg.keyword.value == ref.keyword:
            return index
    return None


def _constructor_call(expression: cst.BaseExpression) -> cst.Call:
    """The `torch.tensor(C, ...)` call itself, also under `.to(...)` and friends."""
    node = expression
    while (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value in _DROPPABLE_CHAIN
    ):
        node = node.func.value
    assert isinstance(node, cst.Call)
    return node


def _constructor_data(expression: cst.BaseExpression) -> cst.BaseExpression:
    """The `C` of `torch.tensor(C, ...)`, also through `.to(...)` and friends."""
    call = _constructor_call(expression)
    return next(arg for arg in call.args if arg.keyword is None).value


def _tensor_local_assignment(
    statement: cst.SimpleStatementLine,
) -> tuple[str, cst.BaseExpression] | None:
    if len(statement.body) != 1:
        return None
    small = statement.body[0]
    if (
        isinstance(small, cst.Assign)
        and len(small.targets) == 1
        and isinstance(small.targets[0].target, cst.Name)
    ):
        return small.targets[0].target.value, small.value
    return None


def _number_written_out(node: cst.BaseExpression) -> Scalar | None:
    sign = 1
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        sign = -1 if isinstance(node.operator, cst.Minus) else 1
        node = node.expression
    if isinstance(node, (cst.Integer, cst.Float)) and not node.lpar:
        value = node.evaluated_value
        return sign * value if isinstance(value, (int, float)) else None
    return None


def _fresh_name(base: str, taken: set[str]) -> str:
    name, counter = base, 2
    while name in taken:
        name, counter = f"{base}_{counter}", counter + 1
    return name


def _constant_statement(name: str, value: cst.BaseExpression) -> cst.SimpleStatementLine:
    return cst.SimpleStatementLine(
        body=[cst.Assign(targets=[cst.AssignTarget(target=cst.Name(name))],
                         value=value.deep_clone())]
    )


def _insert_after_imports(
    module: cst.Module, constants: list[cst.SimpleStatementLine]
) -> cst.Module:
    body = list(module.body)
    index = 0
    for position, statement in enumerate(body):
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            break
        if _is_header(statement, first=position == 0):
            index = position + 1
    if index > 0:
        constants[0] = constants[0].with_changes(leading_lines=[cst.EmptyLine()])
    if index < len(body) and not body[index].leading_lines:
        blank_lines = 2 if isinstance(body[index], (cst.FunctionDef, cst.ClassDef)) else 1
        body[index] = body[index].with_changes(
            leading_lines=[cst.EmptyLine() for _ in range(blank_lines)]
        )
    return module.with_changes(body=[*body[:index], *constants, *body[index:]])


def _is_header(statement: cst.BaseStatement, *, first: bool) -> bool:
    """An import, or the module docstring."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    if all(isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body):
        return True
    return first and m.matches(statement, m.SimpleStatementLine(
        body=[m.Expr(value=m.SimpleString() | m.ConcatenatedString())]))
