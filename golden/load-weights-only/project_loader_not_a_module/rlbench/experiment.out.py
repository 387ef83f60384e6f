"""An experiment whose checkpoint holds its replay buffer and collectors, not just weights."""
import torch
from torch import nn


class Policy(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Linear(4, 2)


class Experiment:
    def __init__(self, restore_file: str) -> None:
        self.restore_file = restore_file
        self.policy = Policy()
        self.replay_buffer: list = []

    def state_dict(self) -> dict:
        return {"policy": self.policy.state_dict(), "buffer": self.replay_buffer}

    def load_state_dict(self, state_dict: dict) -> None:
        self.policy.load_state_dict(state_dict["policy"])
        self.replay_buffer = state_dict["buffer"]

    def load_experiment(self) -> "Experiment":
        loaded = torch.load(self.restore_file, map_location="cpu")
        self.load_state_dict(loaded)
        return self

    def load_policy(self, path: str) -> None:
        self.policy.load_state_dict(
            torch.load(path, map_location="cpu", weights_only=True)
        )
