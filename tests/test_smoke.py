"""Behavioural smoke tests: rewritten code runs with real torch and keeps its promises.

CPU scenarios always run; CUDA scenarios are marked `gpu` and skip, with a reason, where
no CUDA device is present.
"""

from __future__ import annotations

import pytest

from torchfix.smoke import ScenarioSkipped, all_scenarios

SCENARIOS = all_scenarios()


def _param(scenario):
    marks = [pytest.mark.gpu] if scenario.needs_cuda else []
    return pytest.param(scenario, id=scenario.id, marks=marks)


@pytest.mark.parametrize("scenario", [_param(s) for s in SCENARIOS])
def test_scenario(scenario, tmp_path):
    try:
        scenario.run(tmp_path)
    except ScenarioSkipped as skip:
        pytest.skip(str(skip))
