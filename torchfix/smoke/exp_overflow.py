"""exp-overflow, executed: a logistic reward term raised OverflowError for an outlier
before the rewrite and gives its limit after it; ordinary inputs give identical values."""

from __future__ import annotations

import math
from pathlib import Path

from torchfix.smoke import Scenario, ScenarioFailed, expect, load_module, rewrite

CODEMOD = "exp-overflow"

REWARDS = '''
import math


def attribution_discount(total_improvement, steepness=4.0):
    return 1.0 / (1.0 + math.exp(-steepness * total_improvement))


def win_probability(rating_a, rating_b, scale=0.01):
    diff = (rating_a - rating_b) * scale
    return math.exp(diff) / (1 + math.exp(diff))
'''


def outliers_no_longer_raise(folder: Path) -> None:
    original = load_module(REWARDS, folder, "rewards_before")
    fixed = load_module(rewrite(REWARDS, CODEMOD, unsafe_fixes=True), folder, "rewards_after")
    for call, argument, limit in (
        (lambda m: m.attribution_discount(-500.0), "attribution_discount(-500.0)", 0.0),
        (lambda m: m.win_probability(90_000.0, 0.0), "win_probability(90000, 0)", 1.0),
    ):
        try:
            call(original)
        except OverflowError:
            pass
        else:
            raise ScenarioFailed(f"the original {argument} did not overflow")
        value = call(fixed)
        expect(math.isfinite(value) and abs(value - limit) < 1e-300,
               f"the rewritten {argument} gave {value}, not its limit {limit}")


def ordinary_inputs_are_identical(folder: Path) -> None:
    original = load_module(REWARDS, folder, "rewards_before")
    fixed = load_module(rewrite(REWARDS, CODEMOD, unsafe_fixes=True), folder, "rewards_after")
    for x in (-170.0, -3.5, -1e-9, 0.0, 0.25, 7.0, 170.0):
        expect(original.attribution_discount(x) == fixed.attribution_discount(x),
               f"attribution_discount({x}) changed")
    for a, b in ((1500.0, 1400.0), (0.0, 60_000.0), (60_000.0, 0.0)):
        expect(original.win_probability(a, b) == fixed.win_probability(a, b),
               f"win_probability({a}, {b}) changed")


SCENARIOS = [
    Scenario(CODEMOD, "outliers_no_longer_raise", outliers_no_longer_raise),
    Scenario(CODEMOD, "ordinary_inputs_are_identical", ordinary_inputs_are_identical),
]
