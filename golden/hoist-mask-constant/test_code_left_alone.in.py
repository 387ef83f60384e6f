# golden-path: tests/test_beam_search.py
# golden-args: --unsafe-fixes
"""A test builds its masks once per run: nothing to hoist, and no constant to name."""
import torch


def test_finished_beams_are_masked():
    scores = torch.zeros(2, 5)
    scores.masked_fill_(torch.tensor([[True] * 5, [False] * 5]), -1e10)
    assert scores[0].max() == -1e10


def test_eos_is_masked():
    scores = torch.zeros(2, 5)
    eos = torch.tensor([[False, True, False, False, False]] * 2)
    scores = scores.masked_fill(eos, torch.tensor(-1e10, device=scores.device))
    assert scores[:, 1].max() == -1e10


def test_min_length_blocks_eos():
    logits = torch.randn(2, 5).masked_fill(torch.ones(2, 5, dtype=torch.bool), -1e10)
    assert logits.max() == -1e10
