"""atanh-clamp: clamps before atanh whose margin rounds to ±1 in the tensor's dtype, and
`log(1 - a**2 + eps)` tanh corrections."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.model.ast_index import nodes_of
from torchfix.model.project import Project
from torchfix.model.semantic import NOT_LITERAL, BindingKind, SemanticModel
from torchfix.rewrite.contract import (
    Codemod,
    Edit,
    FileContext,
    Finding,
    ReplaceNode,
    Safety,
)

from .torch_module import torch_name

# Mantissa bits (with the implicit one) of the floating-point dtypes atanh is run in.
PRECISION = (("float16", 11), ("bfloat16", 8), ("float32", 24))
ATANH = frozenset({"torch.atanh", "torch.arctanh"})
ATANH_NAMES = frozenset({"atanh", "arctanh", "_atanh", "_arctanh", "inverse_tanh"})
CLAMPS = frozenset({"clamp", "clip"})
LOG = frozenset({"torch.log"})
CLAMP_MESSAGE = ("this clamp before atanh rounds to ±1 in {dtypes}, where atanh is ±inf: "
                 "keep the margin at least torch.finfo(dtype).eps")
CLAMP_REPORT = ("this clamp before atanh rounds to ±1 in {dtypes}, where atanh is ±inf: "
                "keep the margin at least torch.finfo(dtype).eps (the clamped value is not "
                "a plain name, so the fix is left to you)")
LOG_MESSAGE = ("log(1 - a**2 + eps) shifts every value by eps: clamp instead, "
               "log(clamp(1 - a**2, min=eps)), exact away from saturation and floored at it")


class AtanhClamp(Codemod):
    """Keep atanh inputs away from ±1 in the tensor's own precision.

    ## What it does
    Finds clamps that guard an inverse tanh, `torch.atanh(x.clamp(-0.999999, 0.999999))`
    or `0.5 * (torch.log1p(x) - torch.log1p(-x))` after `x = torch.clamp(x, -c, c)` (also
    through a helper named `atanh` / `_atanh`), whose margin `1 - c` is too small to
    survive rounding to the tensor's dtype, and gives them a dtype-aware margin:
    `1.0 - max(1e-06, torch.finfo(x.dtype).eps)`. It also rewrites the tanh-squash
    correction `torch.log(1 - a.pow(2) + eps)` into `torch.log(torch.clamp(1 - a.pow(2),
    min=eps))`.

    ## Why
    `torch.clamp(x, -0.999999, 0.999999)` stores its bound in `x`'s dtype. In float16 and
    bfloat16 (autocast, half-precision inference) 0.999999 rounds to exactly 1.0, so the
    clamp lets 1.0 through and atanh returns inf: the log-probability of a saturated
    action becomes -inf or NaN, and so does the loss. In float32 the same happens to a
    margin below 3e-8. `torch.finfo(dtype).eps` is the smallest margin that survives in
    every dtype. For the correction term, `+ eps` moves every value by eps to avoid
    log(0); a clamp at eps avoids it without moving values that are far from 0.

    ## Example
    ```python
    def _atanh(x: torch.Tensor) -> torch.Tensor:
        x = torch.clamp(x, -0.999999, 0.999999)
        return 0.5 * (torch.log1p(x) - torch.log1p(-x))

    logprob = (dist.log_prob(u).sum(-1)
               - torch.log(1.0 - action.pow(2) + 1e-6).sum(-1))
    ```
    becomes
    ```python
    def _atanh(x: torch.Tensor) -> torch.Tensor:
        x = torch.clamp(x, -1.0 + max(1e-06, torch.finfo(x.dtype).eps),
                        1.0 - max(1e-06, torch.finfo(x.dtype).eps))
        return 0.5 * (torch.log1p(x) - torch.log1p(-x))

    logprob = (dist.log_prob(u).sum(-1)
               - torch.log(torch.clamp(1.0 - action.pow(2), min=1e-6)).sum(-1))
    ```
    (line breaks added here; the fix keeps the call on the lines it had.)

    ## Fix safety
    Both fixes are **unsafe**. The new margin is the old one wherever the old one
    survived rounding (float32 with a margin of 1e-6 gives the same bits), and
    `finfo(dtype).eps` where it did not, so atanh becomes finite (about 3.8 in float16,
    2.8 in bfloat16, 8.3 in float32) where it was inf; that changes results exactly where
    the old code gave inf, and a reviewer should confirm the dtype can occur. The clamp
    form of the correction differs from the old value by log(1 + eps / (1 - a**2)): less
    than eps / (1 - a**2), and less than log 2 where 1 - a**2 < eps. Clamps
    whose bound is not a literal or a constant of the project (`1 - eps` with `eps =
    torch.finfo(x.dtype).eps`, a parameter) are left alone; a clamp of an expression
    other than a name or attribute is reported (its dtype cannot be named without
    computing it twice). A correction of a tanh computed right there (`torch.tanh(raw)`,
    a name bound only to one) is left alone: it never drops below 0, so `+ eps` keeps it
    finite, and a clamp would zero its gradient where the action saturates.
    """

    name = "atanh-clamp"
    summary = "Give clamps before atanh a dtype-aware margin; clamp, not shift, log(1 - a**2)."
    triggers = (b"atanh", b"log1p", b"log(1 -", b"log(1.0 -", b"log(1-", b"log(1.0-",
                b"log((1 -", b"log((1.0 -", b").log()")
    fix_safety = "unsafe"
    family = "numerics"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        lines = set()
        for call in nodes_of(tree, ast.Call):
            func = call.func
            name = func.attr if isinstance(func, ast.Attribute) else (
                func.id if isinstance(func, ast.Name) else "")
            if name in ATANH_NAMES or name in ("log1p", "log") or name in CLAMPS:
                lines.add(call.lineno)
        return lines

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        model = file.semantic
        seen: set[int] = set()
        for clamp in _guarding_clamps(model, file.tree):
            if id(clamp) in seen:
                continue
            seen.add(id(clamp))
            finding = _clamp_finding(file, clamp)
            if finding is not None:
                yield finding
        for call in nodes_of(file.tree, ast.Call):
            finding = _log_finding(file, call)
            if finding is not None:
                yield finding


# -- clamps before atanh ------------------------------------------------------------------


def _guarding_clamps(model: SemanticModel, tree: ast.Module) -> list[ast.Call]:
    """Clamp calls whose result is what an atanh reads."""
    found: list[ast.Call] = []
    for call in nodes_of(tree, ast.Call):
        for value in _atanh_inputs(model, call):
            clamp = _clamp_behind(model, value, 2)
            if clamp is not None:
                found.append(clamp)
    return sorted(found, key=lambda c: (c.lineno, c.col_offset))


def _atanh_inputs(model: SemanticModel, call: ast.Call) -> list[ast.expr]:
    """What `call` takes the inverse tanh of, if it does."""
    func = call.func
    if model.qualified_name(func) in ATANH and call.args:
        return [call.args[0]]
    if isinstance(func, ast.Attribute) and func.attr in ("atanh", "arctanh") and not call.args:
        return [func.value]
    name = func.attr if isinstance(func, ast.Attribute) else (
        func.id if isinstance(func, ast.Name) else "")
    if name in ATANH_NAMES and len(call.args) == 1:
        return [call.args[0]]  # a helper of the project: TanhBijector.atanh(y.clamp(...))
    # log1p(x) - log1p(-x), written with torch.log1p or .log1p()
    parent = model.parent(call)
    if (isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Sub) and parent.left is call
            and isinstance(parent.right, ast.Call)):
        left, right = _log1p_argument(model, call), _log1p_argument(model, parent.right)
        if left is not None and right is not None and isinstance(right, ast.UnaryOp) and \
                isinstance(right.op, ast.USub) and ast.dump(right.operand) == ast.dump(left):
            return [left]
    return []


def _log1p_argument(model: SemanticModel, call: ast.Call) -> ast.expr | None:
    if model.qualified_name(call.func) == "torch.log1p" and len(call.args) == 1:
        return call.args[0]
    if isinstance(call.func, ast.Attribute) and call.func.attr == "log1p" and not call.args:
        return call.func.value
    return None


def _clamp_behind(model: SemanticModel, value: ast.expr, depth: int) -> ast.Call | None:
    """The clamp call `value` is, or a name holds (`x = torch.clamp(x, -c, c)`)."""
    if isinstance(value, ast.Call) and _clamp_parts(model, value) is not None:
        return value
    if isinstance(value, ast.Name) and depth > 0:
        binding = model.binding(value)
        if binding is not None and binding.kind is BindingKind.ASSIGNMENT and \
                not binding.augmented and binding.value is not None:
            return _clamp_behind(model, binding.value, depth - 1)
        if binding is not None and binding.kind is BindingKind.PARAMETER:
            return None
    return None


def _clamp_parts(model: SemanticModel, call: ast.Call
                 ) -> tuple[ast.expr, ast.expr | None, ast.expr | None] | None:
    """(input, min bound, max bound) of `torch.clamp(x, lo, hi)` / `x.clamp(lo, hi)`."""
    func = call.func
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords):
        return None
    qualified = model.qualified_name(func)
    if qualified in ("torch.clamp", "torch.clip") and call.args:
        tensor, rest = call.args[0], call.args[1:]
    elif isinstance(func, ast.Attribute) and func.attr in CLAMPS and qualified is None \
            and len(call.args) <= 2:
        # Tensor.clamp takes at most (min, max): three arguments is `torch.clamp` where
        # the name `torch` is not bound (an unimported module), not a method call.
        tensor, rest = func.value, list(call.args)
    else:
        return None
    keywords = {k.arg: k.value for k in call.keywords}
    low = rest[0] if len(rest) > 0 else keywords.get("min")
    high = rest[1] if len(rest) > 1 else keywords.get("max")
    return tensor, low, high


def _value(model: SemanticModel, expr: ast.expr | None,
           project: Project | None = None) -> float | None:
    """The number a bound written with literals and constants stands for: constants of
    this module, and (given the project) constants imported from its other modules."""
    if expr is None:
        return None
    literal = model.literal(expr)
    if literal is NOT_LITERAL and project is not None and isinstance(
            expr, (ast.Name, ast.Attribute)):
        found = project.constant(model.qualified_name(expr))
        literal = found if found is not None else NOT_LITERAL
    if literal is not NOT_LITERAL:
        if isinstance(literal, (int, float)) and not isinstance(literal, bool):
            return float(literal)
        return None
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = _value(model, expr.operand, project)
        return -inner if inner is not None else None
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)):
        left, right = _value(model, expr.left, project), _value(model, expr.right, project)
        if left is None or right is None:
            return None
        return left + right if isinstance(expr.op, ast.Add) else left - right
    return None


def _rounds_to_one(value: float) -> list[str]:
    """The dtypes in which a bound of magnitude `value` (just below 1) becomes 1."""
    margin = 1.0 - abs(value)
    if not 0.0 <= margin < 0.1:
        return []
    return [dtype for dtype, bits in PRECISION if margin <= 2.0 ** -(bits + 1)]


def _margin_text(file: FileContext, bound: ast.expr, value: float) -> str:
    """How to write `1 - |bound|`: the `m` of `1 - m` / `-1 + m` as written, else the
    number (0.999999 → 1e-06)."""
    node = bound.operand if isinstance(bound, ast.UnaryOp) and isinstance(
        bound.op, ast.USub) and isinstance(bound.operand, ast.BinOp) else bound
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        one = _value(file.semantic, node.left)
        if one is not None and abs(one) == 1.0:
            return file.source(node.right)
    from decimal import Decimal, InvalidOperation  # here: most runs never need it

    try:
        exact = Decimal(1) - abs(Decimal(repr(value)))
    except InvalidOperation:
        exact = Decimal(repr(1.0 - abs(value)))
    return repr(float(exact))


def _clamp_finding(file: FileContext, clamp: ast.Call) -> Finding | None:
    model = file.semantic
    parts = _clamp_parts(model, clamp)
    if parts is None:
        return None
    tensor, low, high = parts
    rounding: dict[str, None] = {}
    bad: list[tuple[ast.expr, float]] = []
    for bound in (low, high):
        value = _value(model, bound, file.project)
        if bound is None or value is None:
            continue
        dtypes = _rounds_to_one(value)
        if dtypes:
            bad.append((bound, value))
            rounding.update(dict.fromkeys(dtypes))
    if not bad:
        return None
    dtypes = " and ".join(rounding)
    spelling = torch_name(model, clamp)
    if not isinstance(tensor, (ast.Name, ast.Attribute)) or spelling is None or \
            "\n" in file.source(tensor):
        return Finding(clamp, CLAMP_REPORT.format(dtypes=dtypes), Safety.MANUAL)
    name, imports = spelling
    eps = f"{name}.finfo({file.source(tensor)}.dtype).eps"
    edits: list[Edit] = []
    for bound, value in bad:
        named = bound.operand if isinstance(bound, ast.UnaryOp) else bound
        if isinstance(named, (ast.Name, ast.Attribute)):
            # A named limit keeps its name: min(LIMIT, 1.0 - eps) / max(-LIMIT, -1.0 + eps)
            code = (f"min({file.source(bound)}, 1.0 - {eps})" if value > 0
                    else f"max({file.source(bound)}, -1.0 + {eps})")
        else:
            margin = _margin_text(file, bound, value)
            sign = "1.0 - " if value > 0 else "-1.0 + "
            code = f"{sign}max({margin}, {eps})"
        edits.append(ReplaceNode(bound, code))
    return Finding(clamp, CLAMP_MESSAGE.format(dtypes=dtypes), Safety.UNSAFE,
                   (*edits, *imports))


# -- log(1 - a**2 + eps) ------------------------------------------------------------------


def _log_finding(file: FileContext, call: ast.Call) -> Finding | None:
    model = file.semantic
    if model.qualified_name(call.func) in LOG and len(call.args) == 1 and not call.keywords:
        argument = call.args[0]
    elif (isinstance(call.func, ast.Attribute) and call.func.attr == "log" and not call.args
          and model.qualified_name(call.func) is None):
        argument = call.func.value
    else:
        return None
    if not (isinstance(argument, ast.BinOp) and isinstance(argument.op, ast.Add)):
        return None
    difference, eps = argument.left, argument.right
    if not (isinstance(difference, ast.BinOp) and isinstance(difference.op, ast.Sub)
            and _value(model, difference.left) == 1.0 and _is_square(model, difference.right)
            and _is_epsilon(model, eps)):
        return None
    if _is_tanh(model, _squared(model, difference.right)):
        return None  # 1 - tanh(u)**2 is never below 0: `+ eps` keeps it finite
    spelling = torch_name(model, call)
    if spelling is None:
        return None
    name, imports = spelling
    code = f"{name}.clamp({file.source(difference)}, min={file.source(eps)})"
    return Finding(call, LOG_MESSAGE, Safety.UNSAFE, (ReplaceNode(argument, code), *imports))


def _is_square(model: SemanticModel, expr: ast.expr) -> bool:
    """`a.pow(2)`, `a ** 2`, `torch.pow(a, 2)`, `a.square()`, `torch.square(a)`, `a * a`."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Pow):
        return _value(model, expr.right) == 2.0
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        return ast.dump(expr.left) == ast.dump(expr.right)
    if isinstance(expr, ast.Call):
        qualified = model.qualified_name(expr.func)
        if qualified == "torch.square" and len(expr.args) == 1:
            return True
        if qualified == "torch.pow" and len(expr.args) == 2:
            return _value(model, expr.args[1]) == 2.0
        if isinstance(expr.func, ast.Attribute) and qualified is None:
            if expr.func.attr == "square" and not expr.args:
                return True
            if expr.func.attr == "pow" and len(expr.args) == 1:
                return _value(model, expr.args[0]) == 2.0
    return False


def _squared(model: SemanticModel, expr: ast.expr) -> ast.expr | None:
    """What an `_is_square` expression squares."""
    if isinstance(expr, ast.BinOp):
        return expr.left
    if isinstance(expr, ast.Call):
        if model.qualified_name(expr.func) in ("torch.pow", "torch.square"):
            return expr.args[0] if expr.args else None
        if isinstance(expr.func, ast.Attribute):
            return expr.func.value
    return None


def _is_tanh(model: SemanticModel, expr: ast.expr | None) -> bool:
    """`torch.tanh(u)`, `F.tanh(u)`, `u.tanh()`, or a local name every binding of which is
    one: SAC's fresh squash (autonomous-learning-library's `log(1 - tanh(raw).pow(2) +
    1e-6)`, round 18), whose correction is already finite and keeps its gradient where a
    clamp at eps would zero it. A stored action (a parameter) may lie past 1: it stays."""
    if isinstance(expr, ast.Name):
        bindings = model.bindings(expr)
        return bool(bindings) and all(
            binding.kind is BindingKind.ASSIGNMENT and not binding.augmented
            and binding.value is not None and _is_tanh(model, binding.value)
            for binding in bindings)
    if not isinstance(expr, ast.Call):
        return False
    qualified = model.qualified_name(expr.func)
    if qualified in ("torch.tanh", "torch.nn.functional.tanh"):
        return True
    return (qualified is None and isinstance(expr.func, ast.Attribute)
            and expr.func.attr == "tanh" and not expr.args)


def _is_epsilon(model: SemanticModel, expr: ast.expr) -> bool:
    """A small positive literal or constant, or a name / attribute that holds one
    (`self.epsilon`, `eps`)."""
    value = _value(model, expr)
    if value is not None:
        return 0.0 < value <= 1e-2
    return isinstance(expr, (ast.Name, ast.Attribute)) and "eps" in (
        expr.id if isinstance(expr, ast.Name) else expr.attr).lower()
