# causaltorch (round 47): the save writes `Path(path)` through a local, and a load method of
# the same class reads its own `path` back: the pair saves and loads one file, so "no load
# of it is seen" would be false. The caller still chooses the file: an unsafe fix.
from pathlib import Path

import torch


class FineTuner:
    def __init__(self, model):
        self.model = model

    def save_finetuned_model(self, path: str):
        """Save the fine-tuned model."""
        save_path = Path(path)
        save_path.parent.mkdir(parents=True, exist_ok=True)
        checkpoint = {"model_state_dict": self.model.state_dict()}
        torch.save(checkpoint, save_path)

    @classmethod
    def load_finetuned_model(cls, path: str) -> "FineTuner":
        checkpoint = torch.load(path)
        return checkpoint
