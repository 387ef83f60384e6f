# golden-args: --unsafe-fixes
# Where x holds whole numbers, `1 + x` rounds nothing away (x is 0 or at least 1), so
# log1p gains nothing: phenaki's log-distance of grid positions and evotorch's CMA-ES
# weights over `torch.arange(popsize)` (round 24: "pointless"). A float x is rewritten.
import torch
from einops import rearrange


def log_distance(*dimensions, device=None):
    positions = [torch.arange(d, device=device) for d in dimensions]
    grid = torch.stack(torch.meshgrid(*positions, indexing="ij"))
    grid = rearrange(grid, "c ... -> (...) c")
    rel_pos = rearrange(grid, "i c -> i 1 c") - rearrange(grid, "j c -> 1 j c")
    return torch.sign(rel_pos) * torch.log(rel_pos.abs() + 1)


def cma_weights(popsize):
    return torch.log(torch.tensor((popsize + 1) / 2)) - torch.log(torch.arange(popsize) + 1)


def fractional_steps():
    steps = torch.arange(0, 1, 0.1)
    return torch.log(steps + 1)


def penalty(ratio):
    ratio = ratio.abs()
    return torch.log(1 + ratio)


def attention_temperature(seq_positions, floor_scale, attn_scale):
    # whole numbers after the floor, whatever the positions: `1 + x` is exact
    return torch.log(torch.floor((seq_positions + 1.0) / floor_scale) + 1.0) * attn_scale + 1.0


def rounded_to_hundredths(x):
    return torch.log(torch.round(x, decimals=2) + 1)


def q_exponential_kl(var_ratio, power):
    # qpytorch (round 42): `kl` is `P - 1` scaled, already rounded as much as `1 + x` rounds
    kl = 0.5 * (var_ratio.pow(power / 2.0) - 1)
    return kl - 0.5 * (1 - 2.0 / power) * torch.log(2 * kl + 1)


def preprocess(X_int, X_cat):
    # DLRM (bitorch's copy, round 45): Criteo's integer count features, named for it
    X_int = torch.log(torch.tensor(X_int, dtype=torch.float) + 1)
    return X_int, X_cat


def collate(transposed_data):
    X_int = torch.log(torch.tensor(transposed_data[0], dtype=torch.float) + 1)
    return X_int


def log_distance(n):
    # gemini-torch (round 46): the `pos` read is the one bound before the statement
    pos = torch.arange(-n + 1, n).float()
    pos = torch.sign(pos) * torch.log(
        pos.abs() + 1
    )
    return pos
