"""exp-overflow: `math.exp(x)` in a logistic `1 / (1 + exp(x))` raises OverflowError."""

from __future__ import annotations

import ast
import math
from collections.abc import Iterator

from torchfix.model.ast_index import nodes_of
from torchfix.model.semantic import NOT_LITERAL, BindingKind, SemanticModel
from torchfix.rewrite.contract import Codemod, FileContext, Finding, Option, ReplaceNode, Safety

DEFAULT_BOUND = 700.0
# Callables whose result is bounded above (so exp of it cannot overflow).
BOUNDING_CALLS = frozenset({"builtins.min", "math.log", "math.log1p", "math.log2",
                            "math.log10", "math.cos", "math.sin", "math.tanh", "math.erf",
                            "builtins.len", "random.random", "random.uniform"})
HANDLES_OVERFLOW = frozenset({"builtins.OverflowError", "builtins.ArithmeticError",
                              "builtins.Exception", "builtins.BaseException"})
FIX_MESSAGE = ("math.exp raises OverflowError once its argument passes 709.78, where this "
               "logistic is already 0 (or 1): clamp the argument")
SOFTPLUS_MESSAGE = ("math.exp raises OverflowError once its argument passes 709.78, and "
                    "log(1 + exp(x)) needs no exp of a large x: write it as "
                    "max(x, 0) + math.log1p(math.exp(-abs(x)))")


def _checked_bound(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            1.0 <= float(value) <= 709.0):
        raise ValueError("bound must be a number between 1 and 709 (exp(709) is the "
                         "largest float exp)")
    return float(value)


class ExpOverflow(Codemod):
    """Clamp the argument of `math.exp` in logistic expressions so it cannot overflow.

    ## What it does
    Rewrites `math.exp(x)` into `math.exp(min(x, 700.0))` where its result only feeds a
    denominator `c + math.exp(x)` (a logistic / sigmoid: `1 / (1 + math.exp(-k * x))`), or
    the `math.exp(x) / (1 + math.exp(x))` form, and `x` is not bounded already. Reports
    `math.log(1 + math.exp(x))` (softplus), where clamping would change the value.

    ## Why
    Unlike `torch.exp` and `numpy.exp`, which return `inf`, `math.exp` raises
    `OverflowError` once its argument passes 709.78. In a reward shaping term or a
    schedule such as `1 / (1 + math.exp(-k * x))`, one large negative `x` (an outlier
    reward, a long run) crashes training, although the value it should give is simply 0.

    ## Example
    ```python
    discount = 1.0 / (1.0 + math.exp(-steepness * improvement))
    ```
    becomes
    ```python
    discount = 1.0 / (1.0 + math.exp(min(-steepness * improvement, 700.0)))
    ```

    ## Fix safety
    The fix is **unsafe**: for arguments up to the bound nothing changes (bit for bit);
    beyond it, where the original raised, the denominator is at least `exp(700)` (1e304)
    and the result is the value the expression tends to (0, or 1 for
    `exp(x) / (1 + exp(x))`), but code that caught the `OverflowError` on purpose behaves
    differently, so a person should look. Left alone: arguments that are bounded already
    (`min(...)`, `-abs(...)`, `log(...)`) or settings rather than data (arithmetic on
    literals, constants and parameters with a literal default), `exp` inside a `try`
    that handles `OverflowError`, and every other use of `math.exp` (`torch.exp` and
    `numpy.exp` do not raise).

    **Options:** `bound` (700.0): the largest argument passed to `exp`.
    """

    name = "exp-overflow"
    summary = "Clamp math.exp arguments in 1 / (1 + exp(x)) so they cannot raise OverflowError."
    triggers = (b"math.exp(", b"from math import", b"import math as")
    fix_safety = "unsafe"
    family = "numerics"
    options = (
        Option("bound", DEFAULT_BOUND,
               "The argument of exp is clamped to at most this (exp(700) is about 1e304).",
               check=lambda value: _checked_bound(value)),
    )

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {call.lineno for call in nodes_of(tree, ast.Call)
                if (isinstance(call.func, ast.Attribute) and call.func.attr == "exp")
                or (isinstance(call.func, ast.Name) and call.func.id == "exp")}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        model = file.semantic
        bound = _checked_bound(file.option("bound", cls))
        for call in nodes_of(file.tree, ast.Call):
            if (model.qualified_name(call.func) != "math.exp" or len(call.args) != 1
                    or call.keywords):
                continue
            argument = call.args[0]
            if _bounded(model, argument, 3) or _overflow_handled(model, call) or \
                    _sign_guarded(model, call):
                continue
            if _in_softplus(model, call):
                yield Finding(call, SOFTPLUS_MESSAGE, Safety.MANUAL)
                continue
            if not _logistic(model, call):
                continue
            if model.bindings_of("min", model.scope_of(call)) or \
                    model.module_scope.star_imports:
                yield Finding(call, f"{FIX_MESSAGE} (`min` is not the builtin here)",
                              Safety.MANUAL)
                continue
            code = f"min({file.source(argument)}, {bound!r})"
            yield Finding(call, FIX_MESSAGE, Safety.UNSAFE, (ReplaceNode(argument, code),))


def _bounded(model: SemanticModel, expr: ast.expr, depth: int) -> bool:
    """Whether `expr` is bounded above by something small enough for exp."""
    if depth < 0:
        return False
    value = model.literal(expr)
    if value is not NOT_LITERAL:
        return isinstance(value, (int, float)) and not isinstance(value, bool) and \
            math.isfinite(value) and value <= 709.0
    if isinstance(expr, ast.Call) and model.qualified_name(expr.func) in BOUNDING_CALLS:
        return True
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        operand = expr.operand
        return isinstance(operand, ast.Call) and model.qualified_name(operand.func) in (
            "builtins.abs", "math.fabs")
    if _configuration(model, expr):
        return True
    if isinstance(expr, ast.Name):
        found = model.bindings(expr)
        return bool(found) and all(
            b.kind is BindingKind.ASSIGNMENT and not b.augmented and b.value is not None
            and _bounded(model, b.value, depth - 1) for b in found)
    return False


def _configuration(model: SemanticModel, expr: ast.expr, depth: int = 3) -> bool:
    """Arithmetic on literals, constants, parameters with a literal default (`0.5 *
    logsnr_max` in `def schedule(logsnr_max=18.0)`) and names assigned once from such
    arithmetic (`logsnr_max = 18.0` in the function: diffsynth's schedule, round 35):
    settings, not data."""
    if model.literal(expr) is not NOT_LITERAL:
        return True
    if depth < 0:
        return False
    if isinstance(expr, ast.UnaryOp):
        return _configuration(model, expr.operand, depth)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult,
                                                             ast.Div)):
        return _configuration(model, expr.left, depth) and \
            _configuration(model, expr.right, depth)
    if isinstance(expr, ast.Name):
        found = model.bindings(expr)
        if len(found) != 1 or found[0].value is None:
            return False
        if found[0].kind is BindingKind.PARAMETER:
            return model.literal(found[0].value) is not NOT_LITERAL
        return found[0].kind is BindingKind.ASSIGNMENT and not found[0].augmented and \
            _configuration(model, found[0].value, depth - 1)
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and \
            expr.value.id == "self":
        values = _own_attribute_values(model, expr)
        return len(values) == 1 and model.literal(values[0]) is not NOT_LITERAL
    return False


def _own_attribute_values(model: SemanticModel, attribute: ast.Attribute) -> list[ast.expr]:
    """What the methods of the class around `attribute` (`self.V_init`) assign to that
    attribute of `self`; an augmented assignment counts as an unknown value (the name
    itself). torchcor's ionic models (round 49) set `self.V_init = -87.` once in
    `__init__` and compute `exp((self.V_init + 71.55) / 7.43)` from it: a setting."""
    owner = model.enclosing_class(attribute)
    if owner is None:
        return [attribute]
    values: list[ast.expr] = []
    for node in ast.walk(owner):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Attribute) and target.attr == attribute.attr and \
                    isinstance(target.value, ast.Name) and target.value.id == "self":
                values.append(attribute if isinstance(node, ast.AugAssign) or
                              node.value is None else node.value)
            elif isinstance(target, ast.Tuple | ast.List) and any(
                    isinstance(inner, ast.Attribute) and inner.attr == attribute.attr
                    for inner in ast.walk(target)):
                values.append(attribute)  # `self.a, self.b = ...`: not followed here
    return values


def _sign_guarded(model: SemanticModel, call: ast.Call) -> bool:
    """Whether an `if` around the call keeps its argument at or below 0: `exp(-x)` in the
    body of `if x >= 0:` (or `x > 0`, or the `else` of `if x < 0:`), `exp(x)` in the `else`
    of `if x >= 0:` (or the body of `if x < 0:`): the split sigmoid (torchlet's
    `sigmoid`, round 51), whose exponent never passes 0."""
    argument = call.args[0]
    negated = isinstance(argument, ast.UnaryOp) and isinstance(argument.op, ast.USub)
    name = argument.operand if negated else argument  # type: ignore[union-attr]
    if not isinstance(name, ast.Name):
        return False
    child: ast.AST = call
    for ancestor in model.ancestors(call):
        if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        if isinstance(ancestor, ast.If | ast.IfExp):
            test = ancestor.test
            body = ancestor.body if isinstance(ancestor, ast.If) else [ancestor.body]
            in_body = any(child is node for node in body)
            if (isinstance(test, ast.Compare) and len(test.ops) == 1
                    and isinstance(test.left, ast.Name) and test.left.id == name.id
                    and isinstance(test.comparators[0], ast.Constant)
                    and test.comparators[0].value == 0):
                positive = isinstance(test.ops[0], ast.GtE | ast.Gt)
                negative = isinstance(test.ops[0], ast.Lt | ast.LtE)
                if (positive or negative) and (negated == (positive == in_body)):
                    return True
        child = ancestor
    return False


def _overflow_handled(model: SemanticModel, call: ast.Call) -> bool:
    """Inside a `try` whose handlers catch OverflowError (the code expects it)."""
    child: ast.AST = call
    for ancestor in model.ancestors(call):
        if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        if isinstance(ancestor, ast.Try) and any(child is s for s in ancestor.body):
            for handler in ancestor.handlers:
                if handler.type is None:
                    return True
                types = handler.type.elts if isinstance(handler.type, ast.Tuple) \
                    else [handler.type]
                if any(model.qualified_name(t) in HANDLES_OVERFLOW for t in types):
                    return True
        child = ancestor
    return False


def _in_softplus(model: SemanticModel, call: ast.Call) -> bool:
    """`math.log(1 + math.exp(x))` or `math.log1p(math.exp(x))`."""
    parent = model.parent(call)
    if isinstance(parent, ast.Call) and model.qualified_name(parent.func) == "math.log1p":
        return True
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add) and \
            _positive_constant(model, parent.left if parent.right is call else parent.right):
        outer = model.parent(parent)
        return isinstance(outer, ast.Call) and model.qualified_name(outer.func) == "math.log"
    return False


def _logistic(model: SemanticModel, call: ast.Call) -> bool:
    """`exp` whose result is only added to a positive constant in a denominator, or the
    numerator of `exp(x) / (c + exp(x))`."""
    parent = model.parent(call)
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add):
        other = parent.left if parent.right is call else parent.right
        return _positive_constant(model, other) and _divides(model, parent) \
            and not _exp_in_numerator(model, parent, call)
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Div) and parent.left is call:
        denominator = parent.right
        if not (isinstance(denominator, ast.BinOp) and isinstance(denominator.op, ast.Add)):
            return False
        sides = [denominator.left, denominator.right]
        same = [side for side in sides if ast.dump(side) == ast.dump(call)]
        return len(same) == 1 and _positive_constant(
            model, sides[1] if sides[0] is same[0] else sides[0])
    return False


def _exp_in_numerator(model: SemanticModel, total: ast.BinOp, call: ast.Call) -> bool:
    """Whether the division by `c + exp(x)` has `exp(x)` inside a longer numerator:
    pytorch-mini's `tanh` as `(exp(2 * x) - 1) / (exp(2 * x) + 1)` (round 56), where
    clamping the denominator's alone leaves the numerator's to overflow, and below that
    makes the ratio pass 1 (`exp(x) / (1 + exp(x))` itself is the logistic's other form)."""
    division = model.parent(total)
    if not (isinstance(division, ast.BinOp) and isinstance(division.op, ast.Div)):
        return False
    numerator = division.left
    if isinstance(numerator, ast.Call) and ast.dump(numerator) == ast.dump(call):
        return False
    return any(isinstance(inner, ast.Call) and model.qualified_name(inner.func) == "math.exp"
               for inner in ast.walk(numerator))


def _divides(model: SemanticModel, total: ast.BinOp) -> bool:
    """Whether the sum is (only) used as a divisor: `n / (1 + e)`, or `d = 1 + e` whose
    every read is `n / d`."""
    parent = model.parent(total)
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Div) and parent.right is total:
        return True
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name)):
        return False
    target = parent.targets[0]
    bindings = [b for b in model.bindings_of(target.id, model.scope_of(target))
                if b.node is target]
    if not bindings:
        return False
    reads = model.references(bindings[0])
    others = model.bindings_of(target.id, model.scope_of(target))
    if len(others) != 1 or not reads:
        return False
    return all(isinstance(model.parent(read), ast.BinOp)
               and isinstance(model.parent(read).op, ast.Div)  # type: ignore[union-attr]
               and model.parent(read).right is read for read in reads)  # type: ignore[union-attr]


def _positive_constant(model: SemanticModel, expr: ast.expr) -> bool:
    value = model.literal(expr)
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
