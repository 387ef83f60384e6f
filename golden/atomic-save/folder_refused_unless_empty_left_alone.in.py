# pytorch-swem (round 49): `save` refuses a folder that holds any file and makes a missing
# one, so weights.pt is always a new file: there is no older one for a rename to keep.
# Left alone. A save into a folder the class does not check is still offered (unsafe here:
# the listing beside it would list a crashed save's temporary folder too).
import json
from pathlib import Path

import torch


class Swem(torch.nn.Module):
    def save(self, path):
        path = Path(path)
        if path.exists():
            if not path.is_dir():
                raise NotADirectoryError(f"Path {path} exists and is not a directory.")
            elif any(path.iterdir()):
                raise FileExistsError(f"Path {path} exists and is not empty.")
        else:
            path.mkdir()
        with open(path / "config.json", "w") as f:
            json.dump({}, f)
        torch.save(self.state_dict(), path / "weights.pt")

    def save_checkpoint(self, folder):
        torch.save(self.state_dict(), Path(folder) / "checkpoint.pt")
