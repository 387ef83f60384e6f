import os

import torch

CHECKPOINT_COMPLETE_MARKER = "CHECKPOINT_COMPLETE"


def save_rng_state(ckpt_dir: str, rank: int) -> None:
    rng_dir = os.path.join(ckpt_dir, "rng_state")
    os.makedirs(rng_dir, exist_ok=True)
    torch.save({"torch": torch.random.get_rng_state()}, os.path.join(rng_dir, f"rank_{rank}.pt"))


def save_checkpoint(ckpt_dir: str, scheduler, rank: int) -> None:
    torch.save(scheduler.state_dict(), os.path.join(ckpt_dir, "scheduler.pt"))
    save_rng_state(ckpt_dir, rank)
    mark_checkpoint_complete(ckpt_dir)


def mark_checkpoint_complete(ckpt_dir: str) -> None:
    """Write a marker file indicating the checkpoint is fully saved."""
    open(os.path.join(ckpt_dir, CHECKPOINT_COMPLETE_MARKER), "w").close()
