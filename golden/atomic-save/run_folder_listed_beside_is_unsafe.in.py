# genrl (round 29) numbers its runs by parsing the name of the newest entry of the folder
# it saves into: a temporary folder left by a crash mid-save would be that entry, and
# `int(...)` would fail on its name. The atomic save is an unsafe fix there.
import os

import torch


class Trainer:
    def __init__(self, agent, folder):
        self.agent = agent
        self.folder = folder
        self.run_num = None

    def save(self, timestep):
        if self.run_num is None:
            entries = sorted(os.scandir(self.folder), key=lambda d: d.stat().st_mtime)
            self.run_num = int(entries[-1].name.split("-")[0]) + 1 if entries else 0
        torch.save(self.agent.state_dict(), f"{self.folder}/{self.run_num}-ckpt-{timestep}.pt")

    def load(self, path):
        self.agent.load_state_dict(torch.load(path))
