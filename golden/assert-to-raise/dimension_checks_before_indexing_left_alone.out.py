# golden-args: --unsafe-fixes
import torch


def zeropower_via_newtonschulz5(G: torch.Tensor, steps: int) -> torch.Tensor:
    # muon (round 37): with fewer than 2 dimensions `G.size(-2)` fails anyway
    assert G.ndim >= 2
    a, b, c = (3.4445, -4.7750, 2.0315)
    X = G.bfloat16()
    if G.size(-2) > G.size(-1):
        X = X.mT
    return X * a * b * c * steps


def reshape_for_broadcast(freqs_cis: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    # llama-models (round 36)
    ndim = x.ndim
    assert 0 <= 1 < ndim
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape) + x.shape[1]


def flatten_pairs(x: torch.Tensor) -> torch.Tensor:
    # a message says what is wrong: the check is kept as an input check
    if x.dim() != 3:
        raise ValueError("x must be (batch, pairs, features)")
    return x.reshape(x.size(0), -1)


def scale(x: torch.Tensor, factor: float) -> torch.Tensor:
    # nothing indexes the dimensions after it: the check is the only guard
    if x.ndim != 2:
        raise ValueError("expected x.ndim == 2")
    return x * factor
