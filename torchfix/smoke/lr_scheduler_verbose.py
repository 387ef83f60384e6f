"""lr-scheduler-verbose, executed: the scheduler the original code builds is a TypeError
on this torch (>= 2.7); the rewritten code builds it and schedules the same rates."""

from __future__ import annotations

from pathlib import Path

from torchfix.smoke import Scenario, ScenarioSkipped, expect, load_module, require_torch, rewrite

CODEMOD = "lr-scheduler-verbose"

SCHEDULE = '''
import torch
from torch.optim.lr_scheduler import StepLR


def rates(steps):
    weight = torch.nn.Parameter(torch.ones(1))
    optimizer = torch.optim.SGD([weight], lr=1.0)
    scheduler = StepLR(optimizer, step_size=2, gamma=0.5, verbose=False)
    seen = []
    for _ in range(steps):
        optimizer.step()
        scheduler.step()
        seen.append(scheduler.get_last_lr()[0])
    return seen
'''


def rewritten_scheduler_runs(folder: Path) -> None:
    torch = require_torch()
    if tuple(int(part) for part in torch.__version__.split(".")[:2]) < (2, 7):
        raise ScenarioSkipped("torch < 2.7 still accepts verbose=")
    original = load_module(SCHEDULE, folder, "schedule_before")
    try:
        original.rates(1)
    except TypeError:
        pass
    else:
        expect(False, "verbose= is accepted again: is torch older than 2.7?")
    fixed_source = rewrite(SCHEDULE, CODEMOD)
    expect("StepLR(optimizer, step_size=2, gamma=0.5)" in fixed_source, "verbose= was kept")
    fixed = load_module(fixed_source, folder, "schedule_after")
    expect(fixed.rates(6) == [1.0, 0.5, 0.5, 0.25, 0.25, 0.125], "the schedule changed")


SCENARIOS = [Scenario(CODEMOD, "rewritten_scheduler_runs", rewritten_scheduler_runs)]
