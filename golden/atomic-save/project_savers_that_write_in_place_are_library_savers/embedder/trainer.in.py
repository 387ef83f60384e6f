"""Saves beside project savers that write the folder in place (FlagEmbedding, round
21): the extra heads next to `self.model.save_pretrained` (the project's method only
hands over to the library's) and the training arguments next to
`self.model.save(output_dir)`, which writes the weights: each leaves the folder as torn
as before, and is reported. Optimizer state beside a writer of the folder is rewritten
as before."""
import os

import torch


class EmbedderModel:
    def save_heads(self, output_dir):
        self.model.save_pretrained(output_dir)
        torch.save(self.colbert_linear.state_dict(), os.path.join(output_dir, "colbert_linear.pt"))


class EmbedderTrainer:
    def _save(self, output_dir=None):
        output_dir = output_dir if output_dir is not None else self.args.output_dir
        self.model.save(output_dir)
        torch.save(self.args, os.path.join(output_dir, "training_args.bin"))

    def save_optimizer(self, output_dir):
        # state beside a writer of the folder: rewritten as before
        self.model.save(output_dir)
        torch.save(self.optimizer.state_dict(), os.path.join(output_dir, "optimizer.pt"))
