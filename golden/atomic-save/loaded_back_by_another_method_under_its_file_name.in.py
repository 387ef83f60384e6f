from pathlib import Path

import torch

WEIGHTS_NAME = "pytorch_model.bin"


class TinyModel(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)

    def save_pretrained(self, save_directory) -> None:
        save_directory = Path(save_directory)
        save_directory.mkdir(parents=True, exist_ok=True)
        torch.save(self.state_dict(), save_directory / WEIGHTS_NAME)

    @classmethod
    def from_pretrained(cls, load_directory) -> "TinyModel":
        # another folder, the same file name: the pair saves and loads one file
        weights_path = Path(load_directory) / WEIGHTS_NAME
        model = cls()
        model.load_state_dict(torch.load(weights_path, map_location="cpu", weights_only=True))
        return model
