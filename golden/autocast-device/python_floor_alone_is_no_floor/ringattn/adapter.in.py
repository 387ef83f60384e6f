# ring-flash-attn (round 31) declares only `requires-python = ">=3.8"`: its users' torch
# is at most 2.4, and may be 2.2, where torch.get_autocast_dtype (2.4) does not exist.
# An unsafe fix, not a safe one.
import torch


def flash_attention_forward(query_states):
    if query_states.dtype == torch.float32:
        if torch.is_autocast_enabled():
            target_dtype = torch.get_autocast_gpu_dtype()
            query_states = query_states.to(target_dtype)
    return query_states
