"""atanh-clamp, executed: with the rewritten margins atanh of a saturated action is finite
in float16, bfloat16 and float32 where the old margin let it reach ±inf; where the old
margin survived rounding, the results are bit for bit the same; the clamped tanh
correction stays within eps of the old one."""

from __future__ import annotations

from pathlib import Path

from torchfix.smoke import Scenario, expect, load_module, require_torch, rewrite

CODEMOD = "atanh-clamp"

POLICY = '''
import torch


def _atanh(x):
    x = torch.clamp(x, -0.999999, 0.999999)
    return 0.5 * (torch.log1p(x) - torch.log1p(-x))


def inverse_tanh(y):
    return torch.atanh(y.clamp(-1.0 + 1e-8, 1.0 - 1e-8))


def squash_correction(action):
    return torch.log(1.0 - action.pow(2) + 1e-6)
'''


def saturated_actions_stay_finite(folder: Path) -> None:
    torch = require_torch()
    fixed_source = rewrite(POLICY, CODEMOD, unsafe_fixes=True)
    original = load_module(POLICY, folder, "policy_before")
    fixed = load_module(fixed_source, folder, "policy_after")
    for dtype in (torch.float16, torch.bfloat16):
        actions = torch.tensor([1.0, -1.0, 0.5], dtype=dtype)
        before, after = original._atanh(actions), fixed._atanh(actions)
        expect(torch.isinf(before[:2]).all(),
               f"{dtype}: the old margin did not round to 1 (nothing to fix)")
        expect(torch.isfinite(after).all(), f"{dtype}: atanh is still infinite")
        expect(after[2] == before[2], f"{dtype}: an unsaturated value changed")
    # float32: 1e-6 survives rounding, so nothing changes; 1e-8 does not.
    actions = torch.tensor([1.0, -1.0, 0.5, 0.9999999])
    expect(torch.equal(original._atanh(actions), fixed._atanh(actions)),
           "float32 results changed where the old margin was fine")
    expect(torch.isinf(original.inverse_tanh(actions)[:2]).all(),
           "float32: the 1e-8 margin did not round to 1")
    expect(torch.isfinite(fixed.inverse_tanh(actions)).all(), "float32: still infinite")


def squash_correction_moves_by_at_most_eps(folder: Path) -> None:
    torch = require_torch()
    original = load_module(POLICY, folder, "policy_before")
    fixed = load_module(rewrite(POLICY, CODEMOD, unsafe_fixes=True), folder, "policy_after")
    actions = torch.tanh(torch.linspace(-4.0, 4.0, 101, dtype=torch.float64))
    before, after = original.squash_correction(actions), fixed.squash_correction(actions)
    # log(v + eps) - log(max(v, eps)) lies in [0, log(2)], and is ~eps / v away from 0.
    difference = before - after
    expect(((difference >= 0) & (difference <= 0.6932)).all(), "the clamp moved a value "
           "further than the eps shift did")
    far = (1 - actions.pow(2)) > 1e-2
    expect((difference[far] < 1e-3).all(), "values far from saturation moved")
    saturated = torch.tensor([1.0, -1.0], dtype=torch.float64)
    expect(torch.isfinite(fixed.squash_correction(saturated)).all(),
           "the correction is not finite at saturation")


SCENARIOS = [
    Scenario(CODEMOD, "saturated_actions_stay_finite", saturated_actions_stay_finite),
    Scenario(CODEMOD, "squash_correction_moves_by_at_most_eps",
             squash_correction_moves_by_at_most_eps),
]
