"""logsumexp: `torch.log(torch.sum(torch.exp(x), dim))` → `torch.logsumexp(x, dim)` (TOR108)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.model.semantic import BindingKind, SemanticModel
from torchfix.rewrite.contract import Codemod, FileContext, Finding, ReplaceNode, Safety

from ..prefilter import calls_by_name
from .patterns import holds_call, in_benchmark, spell, torch_call, unary_torch_call

MESSAGE = ("log(sum(exp(x))) overflows to inf for large x: torch.logsumexp(x, dim) does not "
           "(unsafe: results change, and inf becomes a number)")


class Logsumexp(Codemod):
    """Use `torch.logsumexp(x, dim)` for `torch.log(torch.sum(torch.exp(x), dim))`.

    ## What it does
    `torch.log(torch.sum(torch.exp(x), dim))` (with `dim` given, positionally or by
    keyword, and optionally `keepdim`) becomes `torch.logsumexp(x, dim)`.

    ## Why
    `exp` overflows float32 above about 88 and float16 above about 11, so the naive form
    returns `inf` for logits that are perfectly ordinary, and NaN gradients follow.
    `logsumexp` subtracts the maximum first and never overflows; it is also faster.

    ## Example
    ```python
    log_norm = torch.log(torch.sum(torch.exp(logits), dim=-1))
    ```
    becomes
    ```python
    log_norm = torch.logsumexp(logits, dim=-1)
    ```

    ## Fix safety
    **Unsafe**: the results change, by the last bits for moderate inputs and from `inf`
    to a number for large ones (the point of the fix, but a behaviour change all the
    same). A sum over all elements (no `dim`, or `dim=None`) and a sum with `dtype=` are
    left alone, as TorchFix did. TorchFix code: TOR108 (reported without a fix there).
    """

    name = "logsumexp"
    summary = "Use torch.logsumexp for torch.log(torch.sum(torch.exp(x), dim)): no overflow."
    triggers = (b"exp(",)
    fix_safety = "unsafe"
    codes = ("TOR108",)
    family = "numerics"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {call.lineno for call in _candidates(tree)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        if in_benchmark(file):
            return  # see in_benchmark: a row would measure another operation
        model = file.semantic
        for call in _candidates(file.tree):
            total = unary_torch_call(file, call, "log")
            if not isinstance(total, ast.Call) or model.qualified_name(total.func) != "torch.sum":
                continue
            if not total.args or any(isinstance(a, ast.Starred) for a in total.args):
                continue
            x = unary_torch_call(file, total.args[0], "exp")
            if x is None or holds_call(file, x, ("exp", "logsumexp")) or _max_shifted(x, model):
                continue
            keywords = {k.arg: k.value for k in total.keywords}
            if None in keywords or set(keywords) - {"dim", "keepdim"} or len(total.args) > 3:
                continue
            if len(total.args) > 1:
                dim = total.args[1]
                dim_text = file.source(dim)
            elif "dim" in keywords:
                dim = keywords["dim"]
                dim_text = f"dim={file.source(dim)}"
            else:
                continue  # a sum over everything: logsumexp needs a dim
            if model.literal(dim) is None:
                continue
            rest = [file.source(arg) for arg in total.args[2:]]
            if "keepdim" in keywords:
                rest.append(f"keepdim={file.source(keywords['keepdim'])}")
            spelled = spell(file, call, "logsumexp")
            if spelled is None:
                continue
            arguments = ", ".join([file.source(x), dim_text, *rest])
            yield Finding(call, MESSAGE, Safety.UNSAFE, (
                ReplaceNode(call, f"{spelled.text}({arguments})"), *spelled.imports))


def _candidates(tree: ast.Module) -> list[ast.Call]:
    """`log(sum(exp(x), ...))` as written, each through torch's imports."""
    found = []
    for call in calls_by_name(tree).get("log", ()):
        if not torch_call(tree, call, "log"):
            continue
        total = call.args[0]
        if (isinstance(total, ast.Call) and total.args and isinstance(total.func, (
                ast.Attribute, ast.Name)) and (getattr(total.func, "attr", None) == "sum"
                                               or getattr(total.func, "id", None) == "sum")
                and torch_call(tree, total.args[0], "exp")):
            found.append(call)
    return found


# Methods that give the same values in another shape, dtype or device: a maximum stays one.
SHAPE_METHODS = frozenset({
    "expand", "expand_as", "view", "view_as", "reshape", "reshape_as", "unsqueeze",
    "squeeze", "broadcast_to", "repeat", "detach", "clone", "contiguous", "to", "type_as",
    "float", "double", "half", "bfloat16",
})


def _max_shifted(x: ast.expr, model: SemanticModel, depth: int = 0) -> bool:
    """`x - x_max`, `x - x.max()`, `x - torch.max(x, ...)`: the maximum is subtracted
    already, so the sum cannot overflow (retinaface's and pytorch-crf's `log_sum_exp`
    helpers: rounds 24 and 26 judged the rewrite pointless); also through the locals the
    function binds them to (cell2location's `m, _ = torch.max(value, dim)`, `value0 =
    value - m`, then `torch.exp(value0)`: round 28)."""
    x = _assigned(x, model)
    if not (isinstance(x, ast.BinOp) and isinstance(x.op, ast.Sub)):
        return False
    if isinstance(x.right, ast.Name):  # any of its bindings a max (`m = m.squeeze(1)` too)
        return depth < 3 and any(
            _max_shifted(ast.BinOp(x.left, ast.Sub(), value), model, depth + 1)
            for value in _bound_values(x.right, model) if value is not x.right)
    subtracted = x.right
    while True:
        while isinstance(subtracted, ast.Subscript | ast.Attribute) and not (
                isinstance(subtracted, ast.Attribute) and "max" in subtracted.attr.lower()):
            subtracted = subtracted.value  # `torch.max(x, 1)[0]`, `m.values`
        if isinstance(subtracted, ast.Call) and isinstance(subtracted.func, ast.Attribute) \
                and subtracted.func.attr in SHAPE_METHODS:
            # pytorch-crf's `vec - max_score.expand_as(vec)` (yqn, round 47)
            subtracted = subtracted.func.value
            continue
        break
    if isinstance(subtracted, ast.Call):
        subtracted = subtracted.func
    name = (subtracted.attr if isinstance(subtracted, ast.Attribute)
            else subtracted.id if isinstance(subtracted, ast.Name) else "")
    return "max" in name.lower()


def _assigned(node: ast.expr, model: SemanticModel) -> ast.expr:
    """The value a local name is bound to where the function binds it once; the node
    itself otherwise."""
    values = _bound_values(node, model) if isinstance(node, ast.Name) else []
    return values[0] if len(values) == 1 else node


def _bound_values(name: ast.Name, model: SemanticModel) -> list[ast.expr]:
    """What each assignment of `name` binds it to (the first name of an unpacking gets the
    call unpacked: `m, _ = torch.max(v, 1)`, whose values come first); the name itself for
    a binding of another kind."""
    values: list[ast.expr] = []
    for binding in model.bindings(name):
        target = model.parent(binding.node)
        statement = binding.statement
        if binding.kind is BindingKind.ASSIGNMENT and binding.value is not None and \
                not binding.augmented:
            values.append(binding.value)
        elif (binding.kind is not BindingKind.PARAMETER and isinstance(target, ast.Tuple)
              and target.elts and target.elts[0] is binding.node
              and isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)):
            values.append(statement.value)
        else:
            values.append(name)
    return values
