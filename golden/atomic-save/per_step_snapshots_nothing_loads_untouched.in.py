# A trainer that writes a new file every `save_model_every` steps (nuwa-pytorch's
# VQGanVAETrainer, round 24): no file is ever overwritten, and this module never loads one
# back, so a crash tears only the newest snapshot. Reviewers called the atomic rewrite
# noise (a helper module for files nothing reads): left alone. The same saves in a module
# that loads its snapshots back are rewritten (per_step_snapshots_loaded_back).
from pathlib import Path

import torch


class VQGanVAETrainer:
    def __init__(self, vae, results_folder="./results", save_model_every=1000):
        self.vae = vae
        self.results_folder = Path(results_folder)
        self.save_model_every = save_model_every

    def train_step(self, steps):
        if not (steps % self.save_model_every):
            state_dict = self.vae.state_dict()
            model_path = str(self.results_folder / f"vae.{steps}.pt")
            torch.save(state_dict, model_path)
