"""quantile-not-kthvalue, executed: the rewritten percentile is torch.quantile's, which lies
between the same neighbouring order statistics as kthvalue's pick and differs from it only
by the interpolation; on a small batch the original raised and the rewrite does not."""

from __future__ import annotations

from pathlib import Path

from torchfix.smoke import Scenario, ScenarioFailed, expect, load_module, require_torch, rewrite

CODEMOD = "quantile-not-kthvalue"

DETECTOR = '''
import torch


def anomaly_threshold(errors, percentile=95.0):
    k = int(percentile / 100.0 * errors.numel())
    return errors.view(-1).kthvalue(k).values
'''


def values_differ_only_by_interpolation(folder: Path) -> None:
    torch = require_torch()
    fixed_source = rewrite(DETECTOR, CODEMOD, unsafe_fixes=True)
    expect("torch.quantile(errors.view(-1), percentile / 100.0)" in fixed_source,
           "the percentile was not rewritten to torch.quantile")
    original = load_module(DETECTOR, folder, "detector_before")
    fixed = load_module(fixed_source, folder, "detector_after")
    generator = torch.Generator().manual_seed(0)
    for n in (40, 101, 1000):
        errors = torch.rand(n, generator=generator) ** 3
        ordered = errors.sort().values
        for percentile in (50.0, 90.0, 95.0, 99.0):
            old = original.anomaly_threshold(errors, percentile)
            new = fixed.anomaly_threshold(errors, percentile)
            position = percentile / 100.0 * (n - 1)
            low, high = ordered[int(position)], ordered[min(int(position) + 1, n - 1)]
            expect(low <= new <= high, f"n={n} p={percentile}: {new} is not between the "
                   "order statistics around the quantile")
            # kthvalue's pick is one of the order statistics at most one step away.
            index = (ordered == old).nonzero()[0].item()
            expect(abs(index - position) <= 1.0, f"n={n} p={percentile}: kthvalue picked "
                   f"order statistic {index} for position {position}")
            expect(torch.isclose(new, torch.quantile(errors, percentile / 100.0)),
                   "the rewrite is not torch.quantile")
    # With every value equal, both agree exactly: only interpolation differs.
    flat = torch.full((64,), 0.25)
    expect(original.anomaly_threshold(flat) == fixed.anomaly_threshold(flat),
           "a constant tensor gave different thresholds")


def small_batches_no_longer_raise(folder: Path) -> None:
    torch = require_torch()
    original = load_module(DETECTOR, folder, "detector_before")
    fixed = load_module(rewrite(DETECTOR, CODEMOD, unsafe_fixes=True), folder, "detector_after")
    errors = torch.tensor([0.3, 0.1, 0.2])
    try:
        original.anomaly_threshold(errors, percentile=20.0)  # int(0.2 * 3) == 0
    except (RuntimeError, IndexError):
        pass
    else:
        raise ScenarioFailed("kthvalue(0) did not raise")
    value = fixed.anomaly_threshold(errors, percentile=20.0)
    expect(torch.isclose(value, torch.tensor(0.14)), f"quantile gave {value}, not 0.14")


SCENARIOS = [
    Scenario(CODEMOD, "values_differ_only_by_interpolation", values_differ_only_by_interpolation),
    Scenario(CODEMOD, "small_batches_no_longer_raise", small_batches_no_longer_raise),
]
