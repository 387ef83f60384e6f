# The `else` of a torch version check keeps the call for torch older than 1.11, which
# rejects `use_reentrant` (IOPaint's copies of diffusers' UNet blocks, round 26: 4 wrong
# safe changes): left alone. A call outside such a check gets the keyword.
import torch
from diffusers.utils import is_torch_version


def checkpointed(block, hidden_states, temb):
    if is_torch_version(">=", "1.11.0"):
        return torch.utils.checkpoint.checkpoint(block, hidden_states, temb, use_reentrant=False)
    else:
        return torch.utils.checkpoint.checkpoint(block, hidden_states, temb)


def checkpointed_plain(block, hidden_states):
    return torch.utils.checkpoint.checkpoint(block, hidden_states, use_reentrant=True)
