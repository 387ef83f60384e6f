# golden-args: --unsafe-fixes
"""Checkpoints a training run resumes from are still saved atomically."""

import os

import torch


def main(model, optimizer, epochs, run_dir):
    for epoch in range(epochs):
        model.step()
        # inside the epoch loop: a periodic checkpoint
        torch.save({"model": model.state_dict(), "epoch": epoch}, f"{run_dir}/last.pt")


def save_once(state, path):
    # a checkpointer that never overwrites: no load of the path, so no cache
    if not os.path.isfile(path):
        torch.save(state, path)


def save_best(model, results_dir):
    # results in the folder's name, but a checkpoint in the file's
    torch.save(model.state_dict(), os.path.join(results_dir, "best_checkpoint.pt"))


if __name__ == "__main__":
    net = torch.nn.Linear(2, 2)
    while True:
        torch.save(net.state_dict(), "net.pt")
