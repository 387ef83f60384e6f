"""Each checkpoint gets a new name, and a pointer file names the newest one only after it
is written (clearvoice, round 34): the pointer commits the save, which needs no atomic
write."""

import os

import torch


def save_checkpoint(model, optimizer, epoch, step, checkpoint_dir, mode="checkpoint"):
    checkpoint_path = os.path.join(checkpoint_dir, "model.ckpt-{}-{}.pt".format(epoch, step))
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "epoch": epoch, "step": step}, checkpoint_path)
    with open(os.path.join(checkpoint_dir, mode), "w") as f:
        f.write("model.ckpt-{}-{}.pt".format(epoch, step))


def load_checkpoint(model, checkpoint_dir, mode="checkpoint"):
    with open(os.path.join(checkpoint_dir, mode)) as f:
        name = f.read().strip()
    model.load_state_dict(torch.load(os.path.join(checkpoint_dir, name))["model"])
