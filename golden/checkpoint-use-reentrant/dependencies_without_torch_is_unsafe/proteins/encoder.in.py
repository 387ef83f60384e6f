# tape-proteins (round 29) lists tqdm, scipy and boto3 but no torch; its repository pins
# torch 1.1.0, where `use_reentrant` (torch 1.11) is a TypeError. An unsafe fix.
from torch.utils.checkpoint import checkpoint


def encode(layer, hidden):
    return checkpoint(layer, hidden)
