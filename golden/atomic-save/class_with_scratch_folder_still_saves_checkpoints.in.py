import os
import tempfile

import torch


class Trainer:
    """Has a scratch folder, but saves its checkpoints elsewhere."""

    def __init__(self, output_dir):
        self.output_dir = output_dir
        self.scratch = tempfile.mkdtemp()

    def save_checkpoint(self, step):
        torch.save(self.state_dict(), os.path.join(self.output_dir, f"step-{step}.pt"))

    def save_to(self, ckpt_path):
        for _ in range(2):
            torch.save(self.state_dict(), ckpt_path)
