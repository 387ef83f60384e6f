"""Every golden case, through the real CLI: expected output, byte for byte, then idempotent."""

from __future__ import annotations

import pytest

from torchfix.golden import discover_cases, run_case
from torchfix.rewrite import registry

CASES = discover_cases()


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_golden_case(case):
    outcome = run_case(case)
    assert outcome.passed, outcome.message


def test_every_codemod_has_positive_and_negative_cases():
    for codemod in registry.all_codemods():
        cases = [case for case in CASES if case.codemod == codemod.name]
        if codemod.fix_safety == "report":  # reports only: its positive cases are reports
            assert any(case.check_path and case.check_path.read_text().strip()
                       for case in cases), f"{codemod.name}: no reported case"
            assert any(case.check_path and not case.check_path.read_text().strip()
                       for case in cases), f"{codemod.name}: no negative case"
            continue
        assert any(case.expected_path for case in cases), f"{codemod.name}: no rewrite case"
        assert any(not case.expected_path for case in cases), f"{codemod.name}: no negative case"


def test_golden_folders_name_real_codemods():
    known = set(registry.by_name())
    assert {case.codemod for case in CASES} <= known
