"""hoist-mask-constant's safety rules, checked against what torch really does.

Every fill the codemod calls safe must give the same tensor (bit for bit, dtype included)
or the same error as the constant tensor it replaces, for every dtype the tensor may have;
only code that raised before (the constant tensor could not even be made) may work after.
"""

from __future__ import annotations

import ast
import itertools
import math
from pathlib import Path

import pytest

from codemods.performance.hoist_mask_constant import (
    _FINFO,
    HoistMaskConstant,
    Reader,
    holds_exactly,
    verdict,
)
from torchfix.engine.process import process_source
from torchfix.engine.results import EngineSettings
from torchfix.model.semantic import SemanticModel
from torchfix.rewrite.contract import Safety

torch = pytest.importorskip("torch")

NUMBERS = (
    "-1e9", "-1e8", "-1e4", "-10000", "-65504.0", "-65505.0", "-65519.0", "-1e30", "-1e39",
    "0.1", "0.5", "-1.0", "0", "1", "-1", "127", "128", "-128", "-129", "255", "300", "-100",
    "16777217", "True", "False", 'float("inf")', 'float("-inf")', 'float("nan")',
)
VALUES = (
    *NUMBERS, "torch.finfo(x.dtype).min", "torch.finfo(torch.float16).min",
    "torch.finfo(torch.float32).min",
)
FORMS = {
    "to x": "torch.tensor({value}).to(x)",
    "to x.dtype": "torch.tensor({value}).to(x.dtype)",
    "to float16": "torch.tensor({value}, dtype=torch.float16).to(x.dtype)",
    "type_as x": "torch.tensor({value}).type_as(x)",
    "new_tensor": "x.new_tensor({value})",
    "scalar_tensor": "torch.scalar_tensor({value})",
    "to y": "torch.tensor({value}).to(y)",
}
DTYPES = (
    "", "torch.float32", "torch.float16", "torch.bfloat16", "torch.float64", "torch.int64",
    "torch.uint8", "torch.bool", "x.dtype", "y.dtype", *FORMS,
)
TENSOR_DTYPES = ("float16", "bfloat16", "float32", "float64", "int64", "int32", "uint8", "bool")


def _tensor(dtype: str, zero_dim: bool = False):
    values = torch.tensor(0.0 if zero_dim else [0.0, 1.5, -2.0, 3.0])
    return values.to(getattr(torch, dtype))


def _outcome(expression: str, scope: dict):
    try:
        result = eval(expression, {"torch": torch, "math": math}, scope)
    except (RuntimeError, TypeError, OverflowError) as exc:
        return ("error", type(exc).__name__)
    return ("value", result.dtype, result.shape, result.tolist())


def _same(first, second) -> bool:
    if first[0] == "error" or second[0] == "error":
        return first == second
    nan = [math.isnan(v) if isinstance(v, float) else False for v in _flat(first[3])]
    other_nan = [math.isnan(v) if isinstance(v, float) else False for v in _flat(second[3])]
    return first[:3] == second[:3] and nan == other_nan and [
        v for v, n in zip(_flat(first[3]), nan, strict=True) if not n
    ] == [v for v, n in zip(_flat(second[3]), other_nan, strict=True) if not n]


def _flat(value):
    return value if isinstance(value, list) else [value]


def _creation_fails(value: str, dtype: str, scope: dict) -> bool:
    """The constant tensor itself could not be made: the fix may make such code work."""
    return _outcome(_constructor(value, dtype), scope)[0] == "error"


def _constructor(value: str, dtype: str) -> str:
    """A constant tensor of `value`; `dtype` may also name another form (see FORMS)."""
    if dtype in FORMS:
        return FORMS[dtype].format(value=value)
    return f"torch.tensor({value}, dtype={dtype})" if dtype else f"torch.tensor({value})"


def _judge(call: str) -> Safety | None:
    tree = ast.parse(f"import torch\n{call}\n")
    node = tree.body[1].value  # type: ignore[attr-defined]
    assert isinstance(node, ast.Call)
    reader = Reader(SemanticModel(tree))
    sites = [site for site in reader.fill_sites(node) if isinstance(site.operand, ast.Call)]
    assert len(sites) == 1
    tensor = reader.constant_tensor(sites[0].operand)
    assert tensor is not None
    judged = verdict(sites[0], tensor, reader)
    return judged.safety if judged is not None else None


def test_finfo_table_matches_torch():
    for name, limits in _FINFO.items():
        info = torch.finfo(getattr(torch, name))
        assert (limits["max"], limits["eps"], limits["tiny"]) == (info.max, info.eps, info.tiny)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "int64",
                                   "int8", "uint8", "bool"])
def test_holds_exactly_matches_torch(dtype):
    for text in NUMBERS:
        value = eval(text)
        try:
            held = torch.tensor(value, dtype=getattr(torch, dtype)).item()
        except (RuntimeError, OverflowError):
            held = None
        exact = held is not None and (held == value or (held != held and value != value))
        if dtype == "bool":
            exact = held is not None and held == value
        assert holds_exactly(value, dtype) == exact, (text, dtype, held)


@pytest.mark.parametrize("value", VALUES)
def test_safe_masked_fills_behave_the_same(value):
    mask = torch.tensor([True, False, True, False])
    for dtype, x_dtype, y_dtype in itertools.product(DTYPES, TENSOR_DTYPES, TENSOR_DTYPES):
        call = f"x.masked_fill(m, {_constructor(value, dtype)})"
        if _judge(call) is not Safety.SAFE:
            continue
        scope = {"x": _tensor(x_dtype), "y": _tensor(y_dtype), "m": mask}
        before = _outcome(call, scope)
        after = _outcome(f"x.masked_fill(m, {value})", scope)
        if before[0] == "error":
            assert after[0] == "error" or _creation_fails(value, dtype, scope), (call, x_dtype)
            continue
        assert _same(before, after), (call, x_dtype, before, after)


@pytest.mark.parametrize("value", VALUES)
def test_safe_where_operands_behave_the_same(value):
    condition = torch.tensor([True, False, True, False])
    for dtype, x_dtype, zero_dim in itertools.product(DTYPES, TENSOR_DTYPES, (False, True)):
        if x_dtype == "bool" and value not in ("0", "1", "True", "False"):
            continue  # torch.where(c, flags, <-1e4 or inf as flags.dtype>): nobody writes it
        for call in (f"torch.where(c, x, {_constructor(value, dtype)})",
                     f"torch.where(c, {_constructor(value, dtype)}, x)"):
            if _judge(call) is not Safety.SAFE:
                continue
            scope = {"x": _tensor(x_dtype, zero_dim), "y": _tensor("float16"), "c": condition}
            before = _outcome(call, scope)
            after = _outcome(call.replace(_constructor(value, dtype), value), scope)
            if before[0] == "error":
                continue  # the fix may make failing code work
            assert _same(before, after), (call, x_dtype, zero_dim, before, after)


def test_the_grid_has_safe_and_unsafe_fills():
    judged = {
        _judge(f"x.masked_fill(m, {_constructor(value, dtype)})")
        for value, dtype in itertools.product(VALUES, DTYPES)
    }
    assert {Safety.SAFE, Safety.UNSAFE} <= judged


HOIST_SOURCE = b"""import torch


def f(a, b, m):
    return a.masked_fill(m, -1e9), b.masked_fill(m, -1e9)
"""


@pytest.mark.parametrize(("count", "hoisted"), [(2, True), (3, False), (0, False)])
def test_hoist_min_count_option(count, hoisted):
    settings = EngineSettings(
        codemods=("hoist-mask-constant",),
        unsafe_fixes=True,
        options={"hoist-mask-constant": {"hoist-min-count": count}},
    )
    result = process_source(HOIST_SOURCE, Path("attention.py"), settings)
    assert result.error is None
    output = (result.output or HOIST_SOURCE).decode()
    assert ("MASK_FILL_VALUE = -1e9" in output) is hoisted


def test_candidate_lines_see_a_constructor_imported_under_another_name():
    tree = ast.parse(
        "from torch import tensor as T\n"
        "\n"
        "def mask(logits, legal):\n"
        "    return logits.masked_fill(~legal, T(-1e4, device=logits.device))\n"
    )
    assert HoistMaskConstant.candidate_lines(tree) == {4}
