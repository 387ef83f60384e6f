# golden-path: naturalspeech2_pytorch/naturalspeech2_pytorch.py
# A module named after a model with a version in its name (`naturalspeech2_pytorch.py`,
# `stylegan2_pytorch.py`) is no `<from>2<to>` conversion script: its trainer's checkpoint,
# read back by load(), is rewritten like any other (rounds 20 and 21 called the
# conversion label false). `tensorflow2pytorch.py` and `hf2pt.py` still are conversions.
import torch


class Trainer:
    def save(self):
        data = {"step": self.step, "model": self.model.state_dict()}
        torch.save(data, str(self.results_folder / "model-last.pt"))

    def load(self):
        data = torch.load(str(self.results_folder / "model-last.pt"))
        self.model.load_state_dict(data["model"])
