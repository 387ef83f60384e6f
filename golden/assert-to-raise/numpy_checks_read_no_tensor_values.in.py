import numpy as np
import torch


def chain_ids(asym_id: np.ndarray) -> np.ndarray:
    assert np.all(np.diff(asym_id, n=1) >= 0), "chains must be sorted"
    return np.unique(asym_id)


def pooled(lens: torch.Tensor, seq_len: int) -> torch.Tensor:
    assert (lens.sum(dim=-1) <= seq_len).all(), "lengths exceed the sequence"
    return lens
