"""Shared matching for the numerics codemods: torch calls of one tensor argument, the
literal 1, and the guard that keeps a rewrite from swallowing another one inside it."""

from __future__ import annotations

import ast

from torchfix.model.semantic import Binding, BindingKind
from torchfix.model.test_code import identifier_words, is_benchmark_path
from torchfix.rewrite.contract import FileContext, RemoveImport

from ..prefilter import TORCH, from_package
from ..spelling import Spelling, refer


def is_one(file: FileContext, node: ast.expr) -> bool:
    """`1` or `1.0` (a bool is not one)."""
    return written_one(node)


def written_one(node: ast.expr) -> bool:
    """The literal `1` or `1.0` as written (no model needed)."""
    return (isinstance(node, ast.Constant) and type(node.value) in (int, float)
            and node.value == 1)


def torch_call(tree: ast.Module, node: ast.AST, name: str) -> bool:
    """A cheap look: `<torch alias>.name(x)` or `name(x)` imported from torch."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1):
        return False
    func = node.func
    named = (isinstance(func, ast.Attribute) and func.attr == name) or (
        isinstance(func, ast.Name) and func.id == name)
    return named and from_package(tree, func, TORCH)


def unary_torch_call(file: FileContext, node: ast.AST, function: str) -> ast.expr | None:
    """The argument of `torch.<function>(x)` (through any alias), None for anything else:
    other arguments (`out=`) or unpacking leave it alone."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
            and not isinstance(node.args[0], ast.Starred)):
        return None
    if file.semantic.qualified_name(node.func) != f"torch.{function}":
        return None
    return node.args[0]


def holds_call(file: FileContext, node: ast.expr, functions: tuple[str, ...]) -> bool:
    """Whether `node` holds a call of one of these torch functions. A rewrite that replaces
    an expression by text made from its parts must not hold another rewrite's target, and
    the answer must not change once that one is made: the new names count too."""
    model = file.semantic
    wanted = {f"torch.{name}" for name in functions}
    return any(isinstance(inner, ast.Call) and model.qualified_name(inner.func) in wanted
               for inner in ast.walk(node))


def spell(file: FileContext, call: ast.Call, function: str) -> Spelling | None:
    """`torch.<function>` written the way the call reaches torch (`th.log` → `th.log1p`).
    A `from torch import log` the call went through is dropped once nothing uses it."""
    func = call.func if isinstance(call.func, (ast.Attribute, ast.Name)) else None
    spelled = refer(file, call, f"torch.{function}", via=func)
    if spelled is None or not isinstance(func, ast.Name):
        return spelled
    binding = file.semantic.binding(func)
    statement = binding.statement if binding is not None else None
    if binding is None or binding.kind is not BindingKind.FROM_IMPORT or not isinstance(
            statement, ast.ImportFrom) or not statement.module or statement.level:
        return spelled
    alias = binding.node
    drop = RemoveImport(statement.module, alias.name, alias.asname)  # type: ignore[attr-defined]
    return Spelling(spelled.text, (*spelled.imports, drop))


# Calls whose result holds whole numbers: `torch.arange(n)` (without a fractional bound or
# step), `range`, `len`, `x.numel()`, `x.size(0)`.
WHOLE_NUMBER_CALLS = frozenset({"arange", "range", "len", "numel", "size", "randint",
                                "randperm", "argmax", "argmin", "argsort", "bincount",
                                "count_nonzero"})
# Calls whose result holds whole numbers where what they are handed does: they stack,
# reshape, round or take the sign or size of it.
WHOLE_KEEPING_CALLS = frozenset({"abs", "sign", "stack", "cat", "meshgrid", "rearrange",
                                 "repeat", "reshape", "view", "flatten", "unsqueeze",
                                 "squeeze", "permute", "transpose", "float", "double", "half",
                                 "long", "int", "to", "clone", "detach", "tensor",
                                 "as_tensor", "cumsum", "sum", "max", "min", "round",
                                 "floor", "ceil", "clamp", "expand"})
# Calls that round whatever they are handed to whole numbers (`torch.floor(pos / 8192)`:
# llama-models' attention temperature, round 36), unless told to keep decimals.
ROUNDING_CALLS = frozenset({"floor", "ceil", "trunc", "round", "fix"})
# Words of a parameter's name that say it holds integers (bitorch's DLRM example takes
# `X_int`, Criteo's integer count features, and computes `torch.log(X_int + 1)`: round
# 45's reviewer read log1p there as gaining nothing).
INTEGER_WORDS = frozenset({"int", "ints", "integer", "integers", "count", "counts"})
_WHOLE_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)
_WHOLE_DEPTH = 12


def whole_valued(file: FileContext, node: ast.expr, depth: int = 0) -> bool:
    """Whether the expression holds only whole numbers, as far as the function shows:
    built from integer literals, `torch.arange(n)`, `len(...)` and sizes by `+ - * // %`
    and by calls that keep whole numbers whole (`abs`, `stack`, `rearrange`, `.float()`),
    through the assignments of its function (the latest before it, for a name bound
    more than once). phenaki's `torch.log(rel_pos.abs() + 1)` over the differences of a
    grid of `torch.arange` positions: `log1p` gains nothing there (x is 0 or at least 1),
    and round 24's reviewer called the rewrite pointless."""
    if depth > _WHOLE_DEPTH:
        return False
    inner = depth + 1
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        return whole_valued(file, node.operand, inner)
    if isinstance(node, ast.BinOp) and isinstance(node.op, _WHOLE_OPERATORS):
        return whole_valued(file, node.left, inner) and whole_valued(file, node.right, inner)
    if isinstance(node, ast.Subscript | ast.Starred):
        return whole_valued(file, node.value, inner)
    if isinstance(node, ast.List | ast.Tuple):
        return bool(node.elts) and all(whole_valued(file, item, inner) for item in node.elts)
    if isinstance(node, ast.ListComp | ast.GeneratorExp):
        return whole_valued(file, node.elt, inner)
    if isinstance(node, ast.Attribute) and node.attr == "shape":
        return True
    if isinstance(node, ast.Name):
        return _name_whole_valued(file, node, inner)
    if not isinstance(node, ast.Call):
        return False
    called = node.func.attr if isinstance(node.func, ast.Attribute) else (
        node.func.id if isinstance(node.func, ast.Name) else "")
    if called in ROUNDING_CALLS and not any(keyword.arg == "decimals"
                                            for keyword in node.keywords) and \
            len(node.args) <= (0 if isinstance(node.func, ast.Attribute)
                               and not _is_module(file, node.func.value) else 1):
        return True  # `x.round(2)` and `round(x, 2)` keep decimals; `torch.round(x)` not
    if called in WHOLE_NUMBER_CALLS:
        # `torch.arange(0, 1, 0.1)` holds fractions; `torch.arange(n, dtype=torch.float)`
        # still whole numbers
        return not any(isinstance(value, ast.Constant) and isinstance(value.value, float)
                       for argument in node.args for value in ast.walk(argument))
    if called not in WHOLE_KEEPING_CALLS:
        return False
    handed = [argument for argument in node.args
              if not (isinstance(argument, ast.Constant) and isinstance(argument.value, str))]
    if isinstance(node.func, ast.Attribute) and not _is_module(file, node.func.value):
        handed = [node.func.value]  # `x.abs()`, `x.float()`, `x.view(-1)`: x decides
    return bool(handed) and all(whole_valued(file, argument, inner) for argument in handed)


def _is_module(file: FileContext, node: ast.expr) -> bool:
    """Whether `node` names a module (`torch`, `einops`), not a value."""
    if not isinstance(node, ast.Name):
        return False
    binding = file.semantic.binding(node)
    return binding is not None and binding.kind in (BindingKind.IMPORT,
                                                    BindingKind.FROM_IMPORT)


def _latest_binding(file: FileContext, node: ast.Name) -> Binding | None:
    """The binding of the name in its own scope on the latest line before the read."""
    model = file.semantic
    scope = model.scope_of(node)
    # not the statement being read for (`pos = torch.sign(pos) * torch.log(\n pos.abs()
    # + 1)` reads the `pos` bound before it: gemini-torch, round 46)
    earlier = [binding for binding in model.bindings(node)
               if binding.scope is scope and binding.line < node.lineno
               and not _encloses(binding.statement, node)]
    return max(earlier, key=lambda binding: binding.line) if earlier else None


def _encloses(statement: ast.AST | None, node: ast.AST) -> bool:
    """Whether `node` lies within an assignment `statement` (whose value is read before it
    binds); a loop's or a `with`'s binding holds in its body."""
    if not isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return False
    start = (statement.lineno, statement.col_offset)
    end = (statement.end_lineno or statement.lineno, statement.end_col_offset or 0)
    return start <= (node.lineno, node.col_offset) < end  # type: ignore[attr-defined]


def less_one(file: FileContext, node: ast.expr, depth: int = 0) -> bool:
    """Whether x is a difference with 1, scaled or not, directly or through the latest
    assignment of its function: `0.5 * (P - 1)`, `2 * kl` with `kl = 0.5 * (P - 1)`.
    Its rounding error is already that of `P - 1`, as large as what `1 + x` loses, so
    `log1p(x)` recovers nothing (qpytorch's `torch.log(2 * kl1 + 1)`, round 42)."""
    if depth > _WHOLE_DEPTH:
        return False
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
        return is_one(file, node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult | ast.Div):
        return less_one(file, node.left, depth + 1) or (
            isinstance(node.op, ast.Mult) and less_one(file, node.right, depth + 1))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        return less_one(file, node.operand, depth + 1)
    if isinstance(node, ast.Name):
        latest = _latest_binding(file, node)
        return (latest is not None and latest.kind is BindingKind.ASSIGNMENT
                and latest.value is not None and not latest.augmented
                and less_one(file, latest.value, depth + 1))
    return False


def _name_whole_valued(file: FileContext, node: ast.Name, depth: int) -> bool:
    latest = _latest_binding(file, node)
    if latest is None:
        return False
    if latest.kind is BindingKind.PARAMETER:
        return bool(set(identifier_words(node.id)) & INTEGER_WORDS)  # `X_int`, `counts`
    if latest.kind is BindingKind.LOOP and isinstance(latest.statement, ast.For):
        return whole_valued(file, latest.statement.iter, depth)  # `for i in range(n)`
    if latest.kind is not BindingKind.ASSIGNMENT or latest.value is None or latest.augmented:
        return False
    return whole_valued(file, latest.value, depth)


def in_benchmark(file: FileContext) -> bool:
    """Whether the file is a speed benchmark (`is_benchmark_path`). A precision rewrite
    there swaps the operation a row measures for another (torchburn's "exp + log" row,
    whose result nothing reads: round 48 called its log1p fix wrong), and buys accuracy no
    one checks."""
    return is_benchmark_path(file.path, file.project.root)

