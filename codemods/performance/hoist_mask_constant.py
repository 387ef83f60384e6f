"""hoist-mask-constant: fill masks with Python scalars, not per-call `torch.tensor` constants."""

from __future__ import annotations

import ast
import io
import math
import struct
import tokenize
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from torchfix.model.ast_index import nodes_of
from torchfix.model.ast_names import dotted
from torchfix.model.semantic import Binding, Scope, ScopeKind, SemanticModel
from torchfix.model.test_code import is_example_code, is_test_path
from torchfix.rewrite.contract import (
    Codemod,
    Edit,
    FileContext,
    Finding,
    Option,
    RemoveImport,
    ReplaceNode,
    Safety,
)
from torchfix.rewrite.layout import joins_on_one_line

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
    """An UPPER_CASE constant whose value is not known: a constant, but maybe not a number."""

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
class FillSite:
    """One fill operand of `masked_fill` / `masked_fill_` / `torch.masked_fill` / `torch.where`."""

    function: Literal["masked_fill", "where"]
    operand: ast.expr
    target: ast.expr  # masked_fill: the tensor filled; where: the other operand


@dataclass(frozen=True)
class Verdict:
    """How safe hoisting a mask constant is, and why."""

    safety: Safety
    reason: str = ""  # why the fix is unsafe; "{constant}" stands for the constant as written


def dump(node: ast.AST) -> str:
    return ast.dump(node)


def is_upper_case(name: str) -> bool:
    stripped = name.strip("_")
    return bool(stripped) and stripped.upper() == stripped and any(c.isalpha() for c in name)


# -- what the code says, read through the semantic and project models ----------------------

_CONSTRUCTORS = frozenset({"tensor", "as_tensor", "scalar_tensor"})
_FILL_METHODS = frozenset({"masked_fill", "masked_fill_"})
_DROPPABLE_CHAIN = frozenset({"to", "cuda", "cpu", "type_as"})
# Where a name of another module names an infinity or a NaN (`from math import inf`).
_SPECIAL_FLOATS = {
    f"{module}.{name}": value
    for module in ("math", "numpy", "torch")
    for name, value in (("inf", math.inf), ("nan", math.nan))
}
# How many module constants a value is followed through (`A = B`, `B = pkg.C`).
_CONSTANT_DEPTH = 4


class Reader:
    """Constant tensors, fill sites and constants of one file, as its models see them."""

    def __init__(self, model: SemanticModel, file: FileContext | None = None) -> None:
        self.model = model
        self.file = file  # None: no project to read imported constants from

    def is_torch(self, node: ast.expr, function: str) -> bool:
        """Whether `node` names `torch.<function>` here (any import or alias of it)."""
        return self.model.qualified_name(node) == f"torch.{function}"

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
            and len(node.args) == 1
            and not node.keywords
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and self.model.qualified_name(node.func) == "builtins.float"
        ):
            try:
                return float(node.args[0].value)
            except ValueError:
                return None
        if isinstance(node, (ast.Name, ast.Attribute)):
            return _SPECIAL_FLOATS.get(self.model.qualified_name(node) or "")
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
            known = self.named_value(node)
            return Number(known) if known is not None else Opaque(".".join(names))
        return None

    def named_value(self, node: ast.expr, depth: int = _CONSTANT_DEPTH) -> Scalar | None:
        """The number a name or attribute is known to hold: a constant of this module bound
        once to one, or a constant the project defines in another module and this file
        imports (directly, through a re-export, or as an attribute of an imported module).
        None when the value is not known to be a number."""
        value = self.literal_value(node)
        if value is not None or depth <= 0:
            return value
        if isinstance(node, ast.Name):
            binding = self.model.module_constant(node)
            if binding is not None:
                return self.named_value(binding.value, depth - 1)  # type: ignore[arg-type]
        if isinstance(node, (ast.Name, ast.Attribute)) and self.file is not None:
            qualified = self.model.qualified_name(node)
            found = self.file.project.constant(qualified) if qualified else None
            if isinstance(found, (bool, int, float)):
                return found
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
        """`torch.float16`, `th.half`, `float16` imported from torch: "float16"."""
        qualified = self.model.qualified_name(node) if isinstance(
            node, (ast.Name, ast.Attribute)) else None
        if qualified is None or not qualified.startswith("torch.") or qualified.count(".") != 1:
            return None
        return _DTYPE_NAMES.get(qualified[len("torch."):])

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
        qualified = self.model.qualified_name(func)
        if qualified is not None and qualified.startswith("torch."):
            name = qualified[len("torch."):]
            return name if name in _CONSTRUCTORS else None
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
            if self.model.qualified_name(func.value) == "torch":
                return _function_masked_fill(call)
            return _method_masked_fill(call)
        qualified = self.model.qualified_name(func)
        if qualified == "torch.masked_fill":
            return _function_masked_fill(call)
        if qualified == "torch.where" and len(call.args) == 3 and not call.keywords:
            first, second = call.args[1], call.args[2]
            return [FillSite("where", first, second), FillSite("where", second, first)]
        return []

    def is_scalar_like(self, node: ast.expr) -> bool:
        """A Python number or 0-dim constant: `torch.where` promotes it like the operand."""
        if self.constant(node) is not None:
            return True
        return isinstance(node, ast.Call) and (
            self._constructor(node.func) is not None or self.constant_tensor(node) is not None
        )

    def constructor_import(self, tensor: ast.expr) -> RemoveImport | None:
        """`from torch import tensor [as T]` for the constructor `tensor` calls: to remove
        if the call was its last use."""
        func = _constructor_call(tensor).func
        if not isinstance(func, ast.Name):
            return None
        binding = self.model.binding(func)
        qualified = binding.qualified_name if binding is not None else None
        if binding is None or not binding.is_import or not qualified or \
                not qualified.startswith("torch.") or qualified.count(".") != 1:
            return None
        imported = qualified[len("torch."):]
        return RemoveImport("torch", imported, func.id if func.id != imported else None)


def _function_masked_fill(call: ast.Call) -> list[FillSite]:
    arguments = _bind(call, ("input", "mask", "value"))
    if arguments is None or "input" not in arguments or "value" not in arguments:
        return []
    return [FillSite("masked_fill", arguments["value"], arguments["input"])]


def _method_masked_fill(call: ast.Call) -> list[FillSite]:
    arguments = _bind(call, ("mask", "value"))
    if arguments is None or "value" not in arguments:
        return []
    return [FillSite("masked_fill", arguments["value"], call.func.value)]  # type: ignore[attr-defined]


def _bind(call: ast.Call, names: Sequence[str]) -> dict[str, ast.expr] | None:
    if len(call.args) > len(names):
        return None
    bound = {names[i]: arg for i, arg in enumerate(call.args)}
    for keyword in call.keywords:
        if keyword.arg not in names or keyword.arg in bound:
            return None
        bound[keyword.arg] = keyword.value
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


def _constructor_call(node: ast.expr) -> ast.Call:
    """The `torch.tensor(C, ...)` call itself, also under `.to(...)` and friends."""
    while (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _DROPPABLE_CHAIN
    ):
        node = node.func.value
    assert isinstance(node, ast.Call)
    return node


def constructor_data(node: ast.expr) -> ast.expr:
    """The `C` of `torch.tensor(C, ...)`, also through `.to(...)` and friends."""
    return _constructor_call(node).args[0]


# -- safety ---------------------------------------------------------------------------------


# torch.where(cond, 1.0, x): a Python number as an operand is accepted from torch 1.12 on
# (pytorch#76691); before, it raises a dtype error against a float32 tensor.
WHERE_SCALARS_SINCE = (1, 12)


def verdict(site: FillSite, tensor: ConstantTensor, reader: Reader) -> Verdict | None:
    """How safe it is to fill with the constant itself; None: leave this operand alone."""
    if site.function == "where":
        if reader.is_scalar_like(site.target):
            return None  # both operands constant: the result dtype would follow the scalars
        floor = reader.file.min_torch() if reader.file is not None else None
        if floor is not None and floor < WHERE_SCALARS_SINCE:
            return None  # torch.where takes a Python number from torch 1.12 on only
        if floor is None and reader.file is not None and reader.file.era_predates(
                WHERE_SCALARS_SINCE, "torch.where with a Python number"):
            return None  # made for an older torch (nn-torch's 2020 release, round 52)
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


# -- what the editor is told ----------------------------------------------------------------


@dataclass(frozen=True)
class DropStatement:
    """Remove the finding's statement (`fill = torch.tensor(...)`, `device = x.device`);
    its comments and blank lines stay with the statement that follows."""


@dataclass(frozen=True)
class JoinCall:
    """The fill call laid out over lines fits on one line once its operand is replaced:
    join it, as black and ruff format would."""

    call: ast.Call


@dataclass(frozen=True)
class HoistConstant:
    """This use is replaced by `name` (a ReplaceNode edit); `name = value` goes after the
    module's imports, in `order` among the constants hoisted."""

    name: str
    value: str
    order: int


# -- the codemod ----------------------------------------------------------------------------

_FILL_CALL_NAMES = frozenset({"masked_fill", "masked_fill_", "where"})
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_SEVERITY = {Safety.SAFE: 0, Safety.UNSAFE: 1}


class HoistMaskConstant(Codemod):
    """Fill masks with a Python scalar instead of a new constant tensor on every call.

    ## What it does
    Rewrites `x.masked_fill(mask, torch.tensor(C, device=..., dtype=...))` into
    `x.masked_fill(mask, C)`, where `C` is a constant: a number, `float("-inf")`,
    `math.inf`, `torch.finfo(...).min`, or an UPPER_CASE name or attribute. The same goes
    for `masked_fill_`, `torch.masked_fill`, `torch.as_tensor(C)`, `torch.scalar_tensor(C)`,
    `x.new_tensor(C)`, `torch.tensor(C).to(...)` and the constant operand of
    `torch.where(cond, a, b)`, however torch and these functions are imported
    (`import torch as th`, `from torch import tensor as T`). A local assigned such a tensor
    and used only as fill value in its function goes, and its uses take `C`; so does a
    `device = x.device` local that only those constant tensors read, and a
    `from torch import tensor` left unused. With `--unsafe-fixes`, a large fill value
    (`|C| >= 1000`) that fills three masks or more in a module becomes one module-level
    UPPER_CASE constant (`MASK_FILL_VALUE = -1e9`). A fill call laid out over lines
    that fits on one line once the tensor is gone (at the project's line length, else
    88; no comment inside, no magic trailing comma) is joined, as ruff format would.

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

    An UPPER_CASE constant is judged by its value where that value is known: a constant of
    the same module bound once to a number, or one that another module of the repository
    defines as a number and this file imports (`from pkg.constants import
    MASKED_LOGIT_VALUE`, also through a package's `__init__.py` re-export or as
    `constants.MASKED_LOGIT_VALUE`). Its value then passes the same test as a number
    written out. A constant whose value is not known (imported from outside the
    repository, computed, or not defined where the import says) is **unsafe**: it is
    right only if it is a Python number the constant tensor held exactly.

    `torch.where` never raises on float overflow, but it promotes a 0-dim tensor against
    the other operand where it would not promote a scalar: with a default-dtype constant,
    a 0-dim float16 operand (a loss, say) gives float32 before the fix and float16 after.
    So a `torch.where` fix is safe only with `dtype=` of the other operand and an integer
    other than 0 and 1 (a bool operand would turn int64), an infinity or NaN, or
    `torch.finfo(other.dtype)`; or with a bool constant. A finite float is unsafe even
    then (an integer operand would turn the result float32). `device=` is dropped only
    when it is the other operand's device or the CPU; code that raised before (a CUDA
    constant beside CPU tensors, a constant that did not fit its dtype) may work after.

    Everything else is unsafe: `dtype=` of some other tensor or of a variable that
    changes before a use, an explicit `dtype=` that rounds `C`. Constants with
    `requires_grad=True`, tensors of non-constant data (`torch.tensor(values)`,
    `torch.tensor(self.bias)`), a `torch.where` whose two operands are both constants,
    constant tensors used any other way, constructors with a comment inside, and locals
    used other than as fill values, read in a nested function, or bound more than once
    are left alone. A local (or `device` local) goes only with the constant tensors it
    holds or feeds: it is as safe as the least safe of them, and stays where one of them
    stays (a suppression comment on one of its uses).

    Hoisting is always unsafe: choosing a name is a human decision, and TorchScript cannot
    read module-level floats (files that mention `jit` or `script` are never hoisted). Its
    uses are counted as `--unsafe-fixes` leaves them: numbers written out, and constant
    tensors whose fix (safe or unsafe) makes them numbers.

    Test code (`tests/`, `test_*.py`, `*_test.py`, `conftest.py`) is left alone: a test
    builds its constant tensors once per run, so there is nothing to save, and a module
    constant for a test's fill value is churn a reviewer rejects. So is example code
    (`examples/`, `docs/`, `demo_*.py`, notebooks kept as scripts: `is_example_code`),
    which runs once to show something (bartorch's docs examples, round 50).
    """

    name = "hoist-mask-constant"
    summary = "Fill masks with a Python scalar instead of a per-call torch.tensor constant."
    triggers = (b"masked_fill", b"where(")
    fix_safety = "safe, unsafe"
    family = "performance"
    editor = ".hoist_mask_constant_edit:HoistMaskConstantEditor"
    options = (
        Option("hoist-min-count", 3, "Hoist a large fill value into a module constant when "
                                     "it is written out this many times (0: never)."),
    )

    @classmethod
    def skips_path(cls, path: Path) -> bool:
        # A test builds its constant tensors once per run, not per training step: hoisting
        # them saves nothing, and a module constant for a test's fill value is churn.
        return is_test_path(path)

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        """Fill calls whose operand may be a constant tensor (or a local holding one, or a
        large number), without the semantic model: any import or alias of a constructor
        counts, `check()` then decides by qualified names."""
        fill_names = set(_FILL_CALL_NAMES)
        constructors = set(_CONSTRUCTORS)
        for node in nodes_of(tree, ast.ImportFrom):
            for alias in node.names:
                if alias.asname and alias.name in _FILL_CALL_NAMES:
                    fill_names.add(alias.asname)  # `from torch import where as masked_where`
                elif alias.asname and alias.name in _CONSTRUCTORS:
                    constructors.add(alias.asname)  # `from torch import tensor as T`
        assignments = [
            node for node in nodes_of(tree, ast.Assign)
            if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ]
        for node in assignments:  # `tensor = torch.tensor`, `T = tensor`
            value = node.value
            name = value.attr if isinstance(value, ast.Attribute) else (
                value.id if isinstance(value, ast.Name) else "")
            if name in constructors:
                constructors.add(node.targets[0].id)  # type: ignore[attr-defined]

        def may_be_constant_tensor(node: ast.expr) -> bool:
            return _may_be_constant_tensor(node, constructors)

        lines: set[int] = set()
        name_operands: dict[str, list[int]] = {}  # fill operand name → lines of the fills
        tensor_assignments: dict[str, list[int]] = {}
        read_by_constructors: set[str] = set()
        read_assignments: dict[str, list[int]] = {}  # `device = x.device` and the like
        for node in assignments:
            target = node.targets[0].id  # type: ignore[attr-defined]
            if may_be_constant_tensor(node.value):
                tensor_assignments.setdefault(target, []).append(node.lineno)
                read_by_constructors.update(_names_in(node.value))
            elif dotted(node.value):
                read_assignments.setdefault(target, []).append(node.lineno)
        for node in nodes_of(tree, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else (
                func.id if isinstance(func, ast.Name) else "")
            if not node.args or name not in fill_names:
                continue
            for operand in [*node.args[1:], *(k.value for k in node.keywords)]:
                if isinstance(operand, ast.Name):
                    name_operands.setdefault(operand.id, []).append(node.lineno)
                elif may_be_constant_tensor(operand):
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

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        if is_example_code(file.path, file.text):
            return  # runs once to show something: nothing to save per call
        yield from _Decisions(cls, file).findings()


# -- deciding -------------------------------------------------------------------------------


@dataclass
class _Fix:
    """One decided finding, and what it turns fill operands into."""

    finding: Finding
    effective: bool  # not suppressed: made whenever its safety is applied
    # The code it removes: a constant tensor without its data (`C` stays, at the use).
    removes: tuple[ast.AST, ast.AST] | None = None
    # operand node id → the expression that replaces it
    replaces: dict[int, ast.expr] = field(default_factory=dict)


@dataclass(frozen=True)
class _LiteralUse:
    """A fill operand that is (or becomes) a number written out: a candidate for hoisting."""

    key: tuple[str, str]  # (type, repr) of the value
    value: Scalar
    node: ast.expr  # the operand as read: where the change is made
    text: str  # the number as written


class _Decisions:
    """Every finding of one file, in the order: fills, locals, device locals, hoists."""

    def __init__(self, codemod: type[Codemod], file: FileContext) -> None:
        self.codemod = codemod
        self.file = file
        self.model = file.semantic
        self.reader = Reader(self.model, file)
        self.fixes: list[_Fix] = []
        # Every fill call in the order its code ends (inner calls first), with its sites.
        calls = sorted((call for call in nodes_of(file.tree, ast.Call)
                        if _looks_like_fill_call(call)),
                       key=lambda c: (c.end_lineno or c.lineno, c.end_col_offset or 0))
        self.sites: list[tuple[ast.Call, FillSite]] = [
            (call, site) for call in calls for site in self.reader.fill_sites(call)
        ]
        self.operand_of: dict[int, tuple[ast.Call, FillSite]] = {
            id(site.operand): (call, site) for call, site in self.sites}

    def findings(self) -> Iterator[Finding]:
        self._fill_fixes()
        self._locals()
        self._device_locals()
        self._hoists()
        for fix in self.fixes:
            yield fix.finding

    def suppressed(self, node: ast.AST) -> bool:
        # The engine leaves out suppressed findings; the findings that depend on another
        # (a local goes with the tensors it feeds, a hoist counts rewritten operands) must
        # know which ones stay.
        return self.file.suppressed(self.codemod.name, node)

    def spelled(self, message: str, constant: ast.expr) -> str:
        return message.replace("{constant}", self.file.source(constant))

    def has_comment(self, node: ast.AST) -> bool:
        """A comment inside `node` would be lost with it."""
        text = self.file.source(node)
        if "#" not in text:
            return False
        try:
            tokens = list(tokenize.generate_tokens(io.StringIO(f"(\n{text}\n)").readline))
        except (tokenize.TokenError, SyntaxError):
            return True
        return any(token.type == tokenize.COMMENT for token in tokens)

    # -- constant tensors passed as fill values ------------------------------------------

    def _fill_fixes(self) -> None:
        for _, site in self.sites:
            operand = site.operand
            if isinstance(operand, ast.Name) or not isinstance(operand, ast.Call):
                continue
            tensor = self.reader.constant_tensor(operand)
            if tensor is None or self.has_comment(operand):
                continue
            judged = verdict(site, tensor, self.reader)
            if judged is None:
                continue
            data = constructor_data(operand)
            message = ("fill with {constant} directly: the constant tensor is allocated (and "
                       "copied to the device) on every call")
            if judged.reason:
                message += f" ({judged.reason})"
            edits: list[Edit] = [ReplaceNode(operand, self.file.source(data))]
            forgotten = self.reader.constructor_import(operand)
            if forgotten is not None:
                edits.append(forgotten)
            call, _ = self.operand_of[id(operand)]
            replaced = {id(operand): self.file.source(data)}
            joined = self._joined_call(call, replaced)
            join = JoinCall(joined) if joined is not None else None
            finding = Finding(operand, self.spelled(message, data), judged.safety, tuple(edits),
                              join)
            self.fixes.append(_Fix(finding, not self.suppressed(operand), (operand, data),
                                   {id(operand): data}))

    def _joined_call(self, call: ast.Call, replaced: dict[int, str]) -> ast.Call | None:
        """The call laid out over lines that fits on one line once the operand is replaced,
        as black and ruff format would join it: the fill call itself, or where that sits
        on one line, the method called on its result (`torch.where(keep, p,
        p.new_tensor(float("inf"))).amin(` over lines `)`: executorch, round 53)."""
        while True:
            if joins_on_one_line(self.file, call, replaced):
                return call
            if self.file.span(call).end_line > self.file.span(call).line:
                return None
            method = self.model.parent(call)
            outer = self.model.parent(method) if isinstance(method, ast.Attribute) else None
            if not isinstance(outer, ast.Call) or outer.func is not method:
                return None
            call = outer

    # -- locals holding a constant tensor --------------------------------------------------

    def _locals(self) -> None:
        assignments = [
            node for node in nodes_of(self.file.tree, ast.Assign)
            if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and _may_be_constant_tensor(node.value, None)
        ]
        tensors: dict[int, ConstantTensor] = {}
        locals_by_scope: dict[int, set[str]] = {}
        for assignment in assignments:
            tensor = self.reader.constant_tensor(assignment.value)
            if tensor is None:
                continue
            tensors[id(assignment)] = tensor
            scope = self.model.scope_of(assignment.targets[0])
            locals_by_scope.setdefault(id(scope), set()).add(
                assignment.targets[0].id)  # type: ignore[attr-defined]
        for assignment in sorted(assignments, key=lambda a: a.lineno):
            tensor = tensors.get(id(assignment))
            if tensor is None:
                continue
            scope = self.model.scope_of(assignment.targets[0])
            fix = self._local(assignment, tensor, scope, locals_by_scope[id(scope)])
            if fix is not None:
                self.fixes.append(fix)

    def _local(self, assignment: ast.Assign, tensor: ConstantTensor, scope: Scope,
               tensor_locals: set[str]) -> _Fix | None:
        target: ast.Name = assignment.targets[0]  # type: ignore[assignment]
        binding = _only_binding(scope, target)
        if binding is None or not _alone_and_followed(self.model, assignment):
            return None
        uses = self.model.references(binding)
        end = assignment.end_lineno or assignment.lineno
        if not uses or any(use.lineno <= end for use in uses):
            return None
        if any(not _in_own_code(self.model, use, scope) for use in uses):
            return None  # read in a nested function: it would need the constant there
        # The constant is evaluated where it is used instead of where it was assigned, so
        # the names it reads must not change in between; a dtype or device read from a
        # variable that changes is no longer known at the uses.
        data = constructor_data(assignment.value)
        changed = _changed_before_a_use(self.model, scope, assignment, uses,
                                        {*_names_in(data), tensor.dtype.root,
                                         tensor.device_root} - {""})
        if _names_in(data) & changed:
            return None
        if tensor.dtype.root in changed:
            tensor = replace(tensor, dtype=Dtype("unknown"))
        if tensor.device_root in changed:
            tensor = replace(tensor, device="")
        if any(id(use) not in self.operand_of for use in uses):
            return None  # used some other way too
        sites = [self.operand_of[id(use)] for use in uses]
        if any(isinstance(site.target, ast.Name) and site.target.id in tensor_locals
               for _, site in sites if site.function == "where"):
            return None  # torch.where(c, one, zero): both would become scalars
        verdicts = [verdict(site, tensor, self.reader) for _, site in sites]
        if any(v is None for v in verdicts) or self.has_comment(assignment.value):
            return None
        if any(self.suppressed(call) for call, _ in sites):
            return None  # a use is to stay as it is: so is the local it reads
        unsafe = [v for v in verdicts if v is not None and v.safety is Safety.UNSAFE]
        count = len(uses)
        message = (f"{target.id} is a per-call tensor used only as a fill value: fill with "
                   f"{{constant}} directly ({count} use{'s' if count > 1 else ''}) and drop it")
        safety = Safety.SAFE
        if unsafe:
            safety = Safety.UNSAFE
            message += f" ({unsafe[0].reason})"
        text = self.file.source(data)
        edits: list[Edit] = [ReplaceNode(use, text) for use in uses]
        forgotten = self.reader.constructor_import(assignment.value)
        if forgotten is not None:
            edits.append(forgotten)
        finding = Finding(assignment, self.spelled(message, data), safety, tuple(edits),
                          DropStatement())
        return _Fix(finding, not self.suppressed(assignment), (assignment.value, data),
                    {id(use): data for use in uses})

    # -- `device = x.device` read only by the constant tensors that go -------------------

    def _device_locals(self) -> None:
        regions: dict[int, _Fix] = {}  # node id inside removed code → the fix removing it
        for fix in self.fixes:
            if fix.effective and fix.removes is not None:
                tensor, data = fix.removes
                kept = {id(node) for node in ast.walk(data)}
                regions.update((id(node), fix) for node in ast.walk(tensor)
                               if id(node) not in kept)
        if not regions:
            return
        dropped_locals = {id(fix.finding.node) for fix in self.fixes if fix.effective
                          and isinstance(fix.finding.data, DropStatement)}
        candidates: list[tuple[ast.Assign, str, list[_Fix]]] = []
        for node in nodes_of(self.file.tree, ast.Assign):
            if not (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                    and dotted(node.value)):
                continue
            target = node.targets[0]
            scope = self.model.scope_of(target)
            binding = _only_binding(scope, target)
            if binding is None:
                continue
            loads = self.model.references(binding)
            if not loads or any(id(load) not in regions for load in loads):
                continue
            if any(not _in_own_code(self.model, load, scope) for load in loads):
                continue
            if not _alone_and_followed(self.model, node):
                continue
            candidates.append((node, target.id, [regions[id(load)] for load in loads]))
        # A block may not lose its last statement.
        reads = {id(node) for node, _, _ in candidates}
        keep: set[int] = set()
        for node, _, _ in candidates:
            block = _block_of(self.model, node)
            remaining = [s for s in block if id(s) not in dropped_locals]
            if all(id(s) in reads for s in remaining):
                keep.update(id(s) for s in remaining)
        for node, name, feeding in sorted(candidates, key=lambda c: c[0].lineno):
            if id(node) in keep:
                continue
            safety = max((fix.finding.safety for fix in feeding), key=_SEVERITY.__getitem__)
            finding = Finding(node, f"{name} is read only by the constant tensors dropped "
                                    "here: drop it too", safety, (), DropStatement())
            self.fixes.append(_Fix(finding, not self.suppressed(node)))

    # -- hoisting a repeated large fill value ------------------------------------------------

    def _hoists(self) -> None:
        minimum = self.file.option("hoist-min-count", self.codemod)
        if minimum <= 0 or _uses_torchscript(self.file.tree, self.model):
            return
        replaced: dict[int, ast.expr] = {}
        for fix in self.fixes:
            if fix.effective:
                replaced.update(fix.replaces)
        groups: dict[tuple[str, str], list[_LiteralUse]] = {}
        for call, site in self.sites:
            if not any(isinstance(a, _FUNCTIONS) for a in self.model.ancestors(call)):
                continue  # module or class level: the constant might not exist yet there
            final = replaced.get(id(site.operand), site.operand)
            value = _written_out(self.file, final)
            if value is None or not math.isfinite(value) or abs(value) < HOIST_MIN_MAGNITUDE:
                continue
            key = (type(value).__name__, repr(value))
            groups.setdefault(key, []).append(
                _LiteralUse(key, value, site.operand, self.file.source(final)))
        written = _written_counts(self.file) if groups else Counter()
        # torch-struct (round 29): -1e5 is a semiring's zero, filled by `fill_` calls beside
        # the masked fills; a constant named for masks would split one value in two.
        repeated = [uses for key, uses in groups.items()
                    if len(uses) >= minimum and written[key] <= len(uses)]
        taken = _identifiers(self.file.tree, self.model) if repeated else set()
        order = 0
        for uses in repeated:
            name = _fresh_name("MASK_FILL_VALUE" if uses[0].value < 0 else "LARGE_FILL_VALUE",
                               taken)
            text = uses[0].text
            hoist = HoistConstant(name, text, order)
            fixes = [
                _Fix(Finding(use.node, f"{text} fills {len(uses)} masks in this module: hoist "
                                       f"it into the module constant {name}", Safety.UNSAFE,
                             (ReplaceNode(use.node, name),), hoist),
                     not self.suppressed(use.node))
                for use in uses
            ]
            self.fixes += fixes
            if any(fix.effective for fix in fixes):
                taken.add(name)
                order += 1


def _looks_like_fill_call(call: ast.Call) -> bool:
    """A cheap first look before asking the model: `x.masked_fill(...)`, `torch.where(...)`
    and names (`where`, `fill_where` imported from torch under another name)."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr in _FILL_CALL_NAMES
    return isinstance(func, ast.Name)


def _only_binding(scope: Scope, target: ast.Name) -> Binding | None:
    """The binding of `target` when it is a function's local bound by it alone."""
    if scope.kind is not ScopeKind.FUNCTION or target.id in scope.global_names or \
            target.id in scope.nonlocal_names:
        return None
    bindings = scope.local(target.id)
    if len(bindings) != 1 or bindings[0].node is not target:
        return None
    return bindings[0]


def _in_own_code(model: SemanticModel, node: ast.AST, scope: Scope) -> bool:
    """`node` runs in `scope` itself or in a comprehension of it, not in a nested def,
    lambda or class."""
    current: Scope | None = model.scope_of(node)
    while current is not None and current is not scope:
        if current.kind is not ScopeKind.COMPREHENSION:
            return False
        current = current.parent
    return current is scope


def _changed_before_a_use(model: SemanticModel, scope: Scope, assignment: ast.Assign,
                          uses: Sequence[ast.Name], names: Iterable[str]) -> set[str]:
    """Which of `names` are bound again after the assignment and before one of its uses
    runs.

    A use in the statement that rebinds a name (`logits = logits.masked_fill(m, fill)`)
    still sees the old value; a loop around a use and a later binding, without the
    assignment, runs the use again after the binding. A comprehension around a use that
    binds the name reads its own.
    """
    end = assignment.end_lineno or assignment.lineno
    last_use = max(use.lineno for use in uses)
    loops = {
        id(ancestor): ancestor for use in uses
        for ancestor in _ancestors_in(model, use, scope.node) if isinstance(ancestor, _LOOPS)
    }
    around_uses = [loop for loop in loops.values()
                   if not any(a is loop for a in model.ancestors(assignment))]
    inner_scopes = [model.scope_of(use) for use in uses]
    changed: set[str] = set()
    for name in names:
        if name in scope.global_names or name in scope.nonlocal_names or any(
                name in inner.bindings for inner in inner_scopes if inner is not scope):
            changed.add(name)
            continue
        for binding in scope.local(name):
            if binding.line <= end:
                continue
            if binding.line < last_use or any(
                    any(a is loop for a in model.ancestors(binding.node)) for loop in around_uses):
                changed.add(name)
    return changed


def _ancestors_in(model: SemanticModel, node: ast.AST, stop: ast.AST) -> Iterator[ast.AST]:
    for ancestor in model.ancestors(node):
        if ancestor is stop:
            return
        yield ancestor


def _block_of(model: SemanticModel, statement: ast.stmt) -> list[ast.stmt]:
    """The statements of the block that holds `statement`."""
    found = model.block_of(statement)
    return found[0] if found is not None else []


def _alone_and_followed(model: SemanticModel, statement: ast.stmt) -> bool:
    """The statement has its line to itself and is not the last statement of its block."""
    block = _block_of(model, statement)
    if not block:
        return False
    index = next(i for i, other in enumerate(block) if other is statement)
    if index == len(block) - 1:
        return False
    neighbours = block[max(index - 1, 0): index + 2]
    return all(other is statement or other.lineno != statement.lineno for other in neighbours)


def _may_be_constant_tensor(node: ast.expr, constructors: set[str] | None) -> bool:
    """A cheap first look: a call to something named like a tensor constructor (any name
    for `constructors=None`)."""
    while (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _DROPPABLE_CHAIN
    ):
        node = node.func.value
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Name):
        return constructors is None or func.id in constructors
    return isinstance(func, ast.Attribute) and (
        func.attr in _CONSTRUCTORS or func.attr == "new_tensor")


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


def _written_counts(file: FileContext) -> Counter[tuple[str, str]]:
    """How often each int or float is written out in the module (`-1e5` once, not also
    as the `1e5` inside it), keyed like the hoisted groups."""
    counts: Counter[tuple[str, str]] = Counter()
    signed: set[int] = set()
    for unary in nodes_of(file.tree, ast.UnaryOp):
        value = _written_out(file, unary)
        if value is not None:
            signed.add(id(unary.operand))
            counts[(type(value).__name__, repr(value))] += 1
    for constant in nodes_of(file.tree, ast.Constant):
        if id(constant) not in signed and type(constant.value) in (int, float):
            counts[(type(constant.value).__name__, repr(constant.value))] += 1
    return counts


def _written_out(file: FileContext, node: ast.expr) -> int | float | None:
    """The value of an int or float written out (`-1e9`, `10000`), not through names."""
    sign = 1
    number = node
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        sign = -1 if isinstance(node.op, ast.USub) else 1
        number = node.operand
        if file.source(node)[1:].strip() != file.source(number):
            return None  # `-(1e4)`
    if isinstance(number, ast.Constant) and type(number.value) in (int, float):
        return sign * number.value
    return None


def _uses_torchscript(tree: ast.Module, model: SemanticModel) -> bool:
    """Whether the file mentions TorchScript (`torch.jit`, `@script`)."""
    if any(node.attr in ("jit", "script") for node in nodes_of(tree, ast.Attribute)):
        return True
    return any(
        (binding.qualified_name or "").startswith("torch.jit")
        or (isinstance(binding.node, ast.alias) and binding.node.name.startswith("torch.jit"))
        for binding in model.imported_names()
    )


def _identifiers(tree: ast.Module, model: SemanticModel) -> set[str]:
    """Every name the module binds or reads, in any scope."""
    names = {node.id for node in nodes_of(tree, ast.Name)}
    for scope in model.scopes:
        names.update(scope.bindings)
        names.update(scope.global_names)
        names.update(scope.nonlocal_names)
    return names


def _fresh_name(base: str, taken: set[str]) -> str:
    name, counter = base, 2
    while name in taken:
        name, counter = f"{base}_{counter}", counter + 1
    return name
