import os
import re


class Trainer:
    def __init__(self, net, ckpt_dir):
        self.net = net
        self.ckpt_file = self._get_latest_checkpoint(ckpt_dir)

    def _get_latest_checkpoint(self, ckpt_dir):
        def step_number(name):
            found = re.search(r"(\d+)_steps", name)
            return int(found.groups()[0]) if found else -float("inf")

        if not os.path.exists(ckpt_dir):
            return None
        files = os.listdir(ckpt_dir)
        if not files:
            return None
        return os.path.join(ckpt_dir, max(files, key=step_number))
