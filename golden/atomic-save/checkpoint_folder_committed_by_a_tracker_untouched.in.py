import os

import torch


def save_mcore_checkpoint(state_dict, output_dir: str, iteration: int) -> None:
    checkpoint_dir = os.path.join(output_dir, f"iter_{iteration:07d}")
    os.makedirs(checkpoint_dir, exist_ok=True)
    torch.save(state_dict, os.path.join(checkpoint_dir, "common.pt"))
    tracker_path = os.path.join(output_dir, "latest_checkpointed_iteration.txt")
    try:
        from megatron.core.msc_utils import open_file
    except ImportError:
        open_file = open
    with open_file(tracker_path, "w") as f:
        f.write(str(iteration))
