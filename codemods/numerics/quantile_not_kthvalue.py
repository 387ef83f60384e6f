"""quantile-not-kthvalue: `kthvalue(int(p * n))` used as a percentile → `torch.quantile`."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, replace

from torchfix.model.ast_index import nodes_of
from torchfix.model.semantic import NOT_LITERAL, BindingKind, SemanticModel
from torchfix.rewrite.contract import Codemod, FileContext, Finding, ReplaceNode, Safety

from .torch_module import torch_name

# What turns `p * n` into an index.
ROUNDING = frozenset({"builtins.int", "builtins.round", "math.ceil", "math.floor"})
# Views that keep the elements (and their order) of a tensor.
FLATTENING = frozenset({"view", "flatten", "reshape", "contiguous", "ravel"})
FIX_MESSAGE = ("kthvalue(int(p * n)) as a percentile is off by one order statistic and "
               "raises for small p * n: use torch.quantile, which interpolates")
# `max(1, int(p * n))` never raises (pytorch-dp's clipping threshold, round 46).
GUARDED_FIX_MESSAGE = ("kthvalue(int(p * n)) as a percentile is off by one order statistic: "
                       "use torch.quantile, which interpolates")
# torch.quantile came with torch 1.7.
QUANTILE_SINCE = (1, 7)
REPORT_MESSAGE = ("kthvalue(k) with k computed from a fraction of the size looks like a "
                  "percentile: torch.quantile(x, q) interpolates and has no off-by-one")


@dataclass(frozen=True)
class _Percentile:
    """What a kthvalue's k says as a fraction of the tensor's size."""

    fraction: str | None  # source text of q, where the count is one factor of the product
    count_of: ast.expr | None  # the tensor whose size the count is, if known
    whole: bool = False  # the count is of every element (`numel()`): the tensor is 1-D
    guarded: bool = False  # `max(1, int(p * n))`: k is never 0, kthvalue never raises


class QuantileNotKthvalue(Codemod):
    """Use `torch.quantile` for percentiles, not `kthvalue(int(p * n))`.

    ## What it does
    Rewrites a percentile computed with `kthvalue`, `x.kthvalue(int(p * x.numel())).values`,
    into `torch.quantile(x, p)`. Where the fraction or the tensor cannot be read off the
    code (the size of another tensor, a count kept elsewhere), the call is reported.

    ## Why
    `kthvalue(k)` takes the k-th smallest value, counting from 1: `int(p * n)` is then one
    order statistic off the p-quantile, rounds down where it should interpolate, and is 0
    (a `RuntimeError`) whenever `p * n < 1`, which is every call on a small batch. The
    result is an anomaly threshold or clipping bound that is biased and jumps as `n`
    changes. `torch.quantile(x, p)` interpolates between the neighbouring values and takes
    `p` as it is.

    ## Example
    ```python
    k = int(self.threshold_percentile / 100.0 * errors.numel())
    threshold = errors.view(-1).kthvalue(k).values
    ```
    becomes
    ```python
    k = int(self.threshold_percentile / 100.0 * errors.numel())
    threshold = torch.quantile(errors.view(-1), self.threshold_percentile / 100.0)
    ```
    (`k` is left for you to remove if nothing else reads it.)

    ## Fix safety
    The fix is **unsafe**: the value changes, by design, to the interpolated quantile (it
    lies between the same neighbouring order statistics), `torch.quantile` needs a
    floating-point input of at most 16 million elements (`kthvalue` also takes integers
    and any size), and `p` must lie in [0, 1]. The fix is made only where the percentile
    value alone is used (`.values` or `[0]`) and `n` is the size of the same tensor;
    other percentile-like `kthvalue` calls are reported. `kthvalue` with a fixed `k`, or a
    median written as `n // 2`, is left alone.
    """

    name = "quantile-not-kthvalue"
    summary = "Use torch.quantile for percentiles instead of kthvalue(int(p * n))."
    triggers = (b"kthvalue",)
    fix_safety = "unsafe"
    family = "numerics"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {call.lineno for call in _kthvalue_calls(tree)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        model = file.semantic
        for call in _kthvalue_calls(file.tree):
            parts = _parts(model, call)
            if parts is None:
                continue
            tensor, k, dim, keepdim = parts
            percentile = _percentile(file, k, 3)
            if percentile is None:
                continue
            used = _value_use(model, call)
            same_tensor = percentile.count_of is not None and _same_elements(
                percentile.count_of, tensor)
            spelling = torch_name(model, call)
            if (used is None or not same_tensor or keepdim or spelling is None
                    or percentile.fraction is None):
                yield Finding(call, REPORT_MESSAGE, Safety.MANUAL)
                continue
            floor = file.min_torch()
            if floor is not None and floor < QUANTILE_SINCE:
                # pytorch-dp 0.1 installs torch==1.5.0 (round 46): no torch.quantile there
                yield Finding(call, f"{REPORT_MESSAGE} (torch.quantile needs torch >= "
                              f"1.7, and the project supports torch {floor[0]}.{floor[1]})",
                              Safety.MANUAL)
                continue
            name, imports = spelling
            arguments = [file.source(tensor), percentile.fraction]
            if dim is not None:
                arguments.append(f"dim={file.source(dim)}")
            elif not _visibly_flat(tensor) and not percentile.whole:
                arguments.append("dim=-1")
            code = f"{name}.quantile({', '.join(arguments)})"
            message = GUARDED_FIX_MESSAGE if percentile.guarded else FIX_MESSAGE
            yield Finding(call, message, Safety.UNSAFE, (ReplaceNode(used, code), *imports))


def _kthvalue_calls(tree: ast.Module) -> list[ast.Call]:
    return [node for node in nodes_of(tree, ast.Call)
            if isinstance(node.func, ast.Attribute) and node.func.attr == "kthvalue"]


def _parts(model: SemanticModel, call: ast.Call
           ) -> tuple[ast.expr, ast.expr, ast.expr | None, bool] | None:
    """(tensor, k, dim, keepdim) of `x.kthvalue(k, dim)` or `torch.kthvalue(x, k, dim)`."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords):
        return None
    keywords = {k.arg: k.value for k in call.keywords}
    positional = list(call.args)
    if model.qualified_name(call.func) == "torch.kthvalue":
        names = ["input", "k", "dim", "keepdim"]
    else:
        positional.insert(0, call.func.value)  # type: ignore[attr-defined]
        names = ["input", "k", "dim", "keepdim"]
    values = dict(zip(names, positional, strict=False))
    for key, value in keywords.items():
        if key in values or key not in names:
            return None
        values[key] = value
    if "input" not in values or "k" not in values:
        return None
    keepdim = values.get("keepdim")
    return (values["input"], values["k"], values.get("dim"),
            keepdim is not None and model.literal(keepdim) is not False)


def _percentile(file: FileContext, k: ast.expr, depth: int) -> _Percentile | None:
    """`int(p * n)` (or round/ceil/floor, maybe inside max(1, ...)): an index computed as a
    fraction of a count. None for anything else (`n // 2`, `k`, `2 * n`)."""
    model = file.semantic
    if depth < 0:
        return None
    if isinstance(k, ast.Name):
        binding = model.binding(k)
        if binding is None or binding.kind is not BindingKind.ASSIGNMENT or binding.augmented \
                or binding.value is None or len(model.bindings(k)) != 1:
            return None
        return _percentile(file, binding.value, depth - 1)
    if not isinstance(k, ast.Call) or len(k.args) < 1 or k.keywords:
        return None
    name = model.qualified_name(k.func)
    if name in ("builtins.max", "builtins.min") and len(k.args) == 2:
        for inner, other in ((k.args[0], k.args[1]), (k.args[1], k.args[0])):
            bound = model.literal(other)
            if isinstance(bound, int):
                found = _percentile(file, inner, depth)
                guarded = name == "builtins.max" and bound >= 1
                return replace(found, guarded=True) if found and guarded else found
        return None
    if name not in ROUNDING or (name == "builtins.round" and len(k.args) != 1):
        return None
    product = k.args[0]
    if isinstance(product, ast.Call) and model.qualified_name(product.func) in ROUNDING:
        return _percentile(file, product, depth)
    numerator, denominator = _factors(product)
    if len(numerator) + len(denominator) < 2:
        return None
    if all(_is_integer(model, f) or _count_of(model, f, 2) is not _NO_COUNT
           for f in numerator) and not denominator:
        return None  # 2 * n: a multiple, not a fraction
    counts = [f for f in numerator if _count_of(model, f, 2) is not _NO_COUNT]
    if len(counts) != 1 or len(numerator) < 2:
        return _Percentile(None, None)  # a fraction of something: worth a report
    count = counts[0]
    rest = [f for f in numerator if f is not count]
    fraction = " * ".join(_text(file, f) for f in rest) + "".join(
        f" / {_text(file, d)}" for d in denominator)
    count_of = _count_of(model, count, 2)
    return _Percentile(fraction, count_of if isinstance(count_of, ast.expr) else None,
                       _counts_every_element(model, count, 2))


_NO_COUNT = object()


def _count_of(model: SemanticModel, expr: ast.expr, depth: int) -> object:
    """The tensor whose size `expr` is (`x.numel()`, `len(x)`, `x.shape[0]`, `x.size(0)`);
    None for a count of something unknown (a name bound to one); _NO_COUNT otherwise."""
    if isinstance(expr, ast.Call):
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr in ("numel", "nelement", "size") \
                and (func.attr != "size" or expr.args):
            return func.value
        if model.qualified_name(func) in ("builtins.len", "torch.numel") and len(expr.args) == 1:
            return expr.args[0]
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Attribute) and \
            expr.value.attr == "shape":
        return expr.value.value
    if isinstance(expr, ast.Name) and depth > 0:
        binding = model.binding(expr)
        if binding is not None and binding.kind is BindingKind.ASSIGNMENT and \
                binding.value is not None and len(model.bindings(expr)) == 1:
            found = _count_of(model, binding.value, depth - 1)
            return found
    return _NO_COUNT


def _counts_every_element(model: SemanticModel, expr: ast.expr, depth: int) -> bool:
    """`x.numel()`, `x.nelement()`, `torch.numel(x)` (or a name bound to one)."""
    if isinstance(expr, ast.Name) and depth > 0:
        binding = model.binding(expr)
        return binding is not None and binding.value is not None and _counts_every_element(
            model, binding.value, depth - 1)
    return isinstance(expr, ast.Call) and (
        (isinstance(expr.func, ast.Attribute) and expr.func.attr in ("numel", "nelement"))
        or model.qualified_name(expr.func) == "torch.numel")


def _factors(expr: ast.expr) -> tuple[list[ast.expr], list[ast.expr]]:
    """`a * b / c * d` → ([a, b, d], [c])."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        left, right = _factors(expr.left), _factors(expr.right)
        return left[0] + right[0], left[1] + right[1]
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Div):
        left = _factors(expr.left)
        return left[0], [*left[1], expr.right]
    return [expr], []


def _text(file: FileContext, expr: ast.expr) -> str:
    text = file.source(expr)
    if isinstance(expr, (ast.BinOp, ast.BoolOp, ast.IfExp, ast.Lambda, ast.Compare,
                         ast.UnaryOp)):
        return f"({text})"
    return text


def _is_integer(model: SemanticModel, expr: ast.expr) -> bool:
    value = model.literal(expr)
    return value is not NOT_LITERAL and isinstance(value, int)


def _value_use(model: SemanticModel, call: ast.Call) -> ast.expr | None:
    """`call.values` or `call[0]`: the expression that reads only the percentile value."""
    parent = model.parent(call)
    if isinstance(parent, ast.Attribute) and parent.attr == "values":
        return parent
    if isinstance(parent, ast.Subscript) and model.literal(parent.slice) == 0:
        return parent
    return None


def _strip_views(expr: ast.expr) -> ast.expr:
    while (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute)
           and expr.func.attr in FLATTENING):
        expr = expr.func.value
    return expr


def _same_elements(a: ast.expr, b: ast.expr) -> bool:
    return ast.dump(_strip_views(a)) == ast.dump(_strip_views(b))


def _visibly_flat(tensor: ast.expr) -> bool:
    """`x.view(-1)`, `x.reshape(-1)`, `x.flatten()`: one dimension."""
    if not (isinstance(tensor, ast.Call) and isinstance(tensor.func, ast.Attribute)):
        return False
    method = tensor.func.attr
    if method in ("flatten", "ravel") and not tensor.args and not tensor.keywords:
        return True
    return method in ("view", "reshape") and len(tensor.args) == 1 and isinstance(
        tensor.args[0], ast.UnaryOp) and ast.unparse(tensor.args[0]) == "-1"
