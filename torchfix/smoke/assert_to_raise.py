"""assert-to-raise, executed: under `python -O` the original lets bad PPO settings and
mismatched tensors through, the rewritten code raises ValueError/TypeError; valid input
gives the same losses before and after, bit for bit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from torchfix.smoke import Scenario, ScenarioFailed, expect, require_cuda, require_torch, rewrite

CODEMOD = "assert-to-raise"

PPO = '''
from dataclasses import dataclass

import torch
from torch import nn

DEFAULT_GAMMA = 0.99


@dataclass
class PPOConfig:
    gamma: float = DEFAULT_GAMMA
    clip_range: float = 0.2
    value_coef: float = 0.5


def ppo_loss(log_probs, old_log_probs, advantages, values, returns, config):
    assert 0.0 < config.clip_range < 1.0, f"clip_range must be in (0, 1), got {config.clip_range}"
    assert config.gamma == DEFAULT_GAMMA, "reward shaping assumes the PPO discount"
    assert log_probs.shape == old_log_probs.shape == advantages.shape
    assert values.shape == returns.shape, (
        f"values {tuple(values.shape)} and returns {tuple(returns.shape)} "  # would broadcast
        "must have the same shape"
    )
    ratio = torch.exp(log_probs - old_log_probs)
    clipped = torch.clamp(ratio, 1.0 - config.clip_range, 1.0 + config.clip_range)
    policy_loss = -torch.min(ratio * advantages, clipped * advantages).mean()
    value_loss = (values - returns).pow(2).mean()
    return policy_loss + config.value_coef * value_loss


def attach_value_head(policy, hidden_size: int):
    # A head set on something that is not a module is never seen by the optimizer.
    assert isinstance(policy, nn.Module), f"policy must be an nn.Module, got {type(policy)}"
    assert hidden_size > 0
    policy.value_head = nn.Linear(hidden_size, 1)
    return policy
'''

# Run in a child process under `python -O`: every call either returns or raises, and the
# child reports which (exception class name, or "ok" plus the loss as a list of floats).
CHILD = '''
import importlib.util, json, sys, types
import torch

def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module

def batch(device, n=64, values_shape=None):
    g = torch.Generator().manual_seed(0)
    t = lambda *shape: torch.randn(*shape, generator=g).to(device)
    values = t(*(values_shape or (n,)))
    return t(n), t(n), t(n), values, t(n)

def outcome(call):
    torch.manual_seed(0)  # attach_value_head initialises a Linear: same weights before and after
    try:
        result = call()
    except Exception as exc:
        return type(exc).__name__
    if isinstance(result, torch.Tensor):
        return ["ok", result.detach().cpu().double().flatten().tolist()]
    return ["ok", None]

device = sys.argv[3]
report = {"optimize": sys.flags.optimize}
for label, path in (("original", sys.argv[1]), ("rewritten", sys.argv[2])):
    m = load(path, "ppo_" + label)
    good = m.PPOConfig()
    cases = {
        "valid": lambda: m.ppo_loss(*batch(device), good),
        "valid_head": lambda: m.attach_value_head(torch.nn.Linear(8, 8), 8).value_head(
            torch.ones(2, 8)),
        "clip_range_too_large": lambda: m.ppo_loss(*batch(device), m.PPOConfig(clip_range=1.5)),
        "clip_range_nan": lambda: m.ppo_loss(*batch(device), m.PPOConfig(clip_range=float("nan"))),
        "gamma_mismatch": lambda: m.ppo_loss(*batch(device), m.PPOConfig(gamma=0.9)),
        "log_prob_shape_mismatch": lambda: m.ppo_loss(
            torch.zeros(64, device=device), torch.zeros(64, 1, device=device),
            torch.zeros(64, device=device), torch.zeros(64, device=device),
            torch.zeros(64, device=device), good),
        "values_would_broadcast": lambda: m.ppo_loss(*batch(device, values_shape=(64, 1)), good),
        "policy_not_a_module": lambda: m.attach_value_head(types.SimpleNamespace(), 8),
        "hidden_size_zero": lambda: m.attach_value_head(torch.nn.Linear(8, 8), 0),
    }
    report[label] = {name: outcome(call) for name, call in cases.items()}
print(json.dumps(report))
'''

# What the rewritten code must raise for each bad input, under -O as without it.
EXPECTED_ERRORS = {
    "clip_range_too_large": "ValueError",
    "clip_range_nan": "ValueError",  # `not (0 < nan < 1)`: an inverted `<=`/`>=` would pass NaN
    "gamma_mismatch": "ValueError",
    "log_prob_shape_mismatch": "ValueError",
    "values_would_broadcast": "ValueError",
    "policy_not_a_module": "TypeError",
    "hidden_size_zero": "ValueError",
}
VALID_CASES = ("valid", "valid_head")


def _run_child(folder: Path, original: str, rewritten: str, *, optimize: bool,
               device: str) -> dict[str, Any]:
    paths = []
    for name, source in (("ppo_before.py", original), ("ppo_after.py", rewritten)):
        path = folder / name
        path.write_text(source, encoding="utf-8")
        paths.append(str(path))
    script = folder / "child.py"
    script.write_text(CHILD, encoding="utf-8")
    flags = ["-O"] if optimize else []
    completed = subprocess.run(
        [sys.executable, *flags, str(script), *paths, device],
        capture_output=True, text=True, timeout=300, check=False,
    )
    if completed.returncode != 0:
        raise ScenarioFailed(f"the child process failed:\n{completed.stderr[-2000:]}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def _outcomes(report: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    before, after = report.get("original"), report.get("rewritten")
    if not isinstance(before, dict) or not isinstance(after, dict):
        raise ScenarioFailed(f"the child's report is incomplete: {report!r}")
    return before, after


def _rewritten() -> str:
    fixed = rewrite(PPO, CODEMOD)
    expect("assert " not in fixed, "an assert of the snippet was left in place")
    expect("raise TypeError(" in fixed, "the isinstance check does not raise TypeError")
    return fixed


def _check_optimized(report: dict[str, Any]) -> None:
    expect(report["optimize"] == 1, "the child did not run under python -O")
    before, after = _outcomes(report)
    let_through = [name for name in EXPECTED_ERRORS if before[name][0] == "ok"]
    expect(len(let_through) == len(EXPECTED_ERRORS),
           f"under -O the original should accept every bad input, it rejected "
           f"{sorted(set(EXPECTED_ERRORS) - set(let_through))}")
    for name, error in EXPECTED_ERRORS.items():
        expect(after[name] == error,
               f"{name}: the rewritten code gave {after[name]!r} under -O, not {error}")
    for name in VALID_CASES:
        expect(after[name] == before[name],
               f"{name}: valid input changed its result: {before[name]!r} → {after[name]!r}")
        expect(after[name][0] == "ok", f"{name}: valid input was rejected: {after[name]!r}")


def bad_input_raises_under_optimize(folder: Path) -> None:
    require_torch()
    report = _run_child(folder, PPO, _rewritten(), optimize=True, device="cpu")
    _check_optimized(report)


def only_the_exception_type_changes_without_optimize(folder: Path) -> None:
    require_torch()
    report = _run_child(folder, PPO, _rewritten(), optimize=False, device="cpu")
    expect(report["optimize"] == 0, "the child ran optimized")
    before, after = _outcomes(report)
    for name, error in EXPECTED_ERRORS.items():
        expect(before[name] == "AssertionError",
               f"{name}: the original gave {before[name]!r}, not AssertionError")
        expect(after[name] == error, f"{name}: the rewritten code gave {after[name]!r}")
    for name in VALID_CASES:
        expect(after[name] == before[name], f"{name}: valid input changed its result")


def bad_cuda_batches_raise_under_optimize(folder: Path) -> None:
    require_cuda()
    report = _run_child(folder, PPO, _rewritten(), optimize=True, device="cuda")
    _check_optimized(report)


SCENARIOS = [
    Scenario(CODEMOD, "bad_input_raises_under_optimize", bad_input_raises_under_optimize),
    Scenario(CODEMOD, "only_the_exception_type_changes_without_optimize",
             only_the_exception_type_changes_without_optimize),
    Scenario(CODEMOD, "bad_cuda_batches_raise_under_optimize",
             bad_cuda_batches_raise_under_optimize, needs_cuda=True),
]
