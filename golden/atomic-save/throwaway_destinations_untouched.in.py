"""A file saved only to be measured or read back and deleted is no checkpoint: a random
name (`random`, `uuid`, `secrets`, `tempfile`, `id()`, the process id), or a removal later in the function,
says so. Removing something else, or before the save, does not."""

import os
import os.path as osp
import random
import shutil
import sys
import uuid
from pathlib import Path

import torch


def get_model_size(model):
    path = f"{random.randrange(sys.maxsize)}.pt"
    torch.save(model.state_dict(), path)
    model_size = osp.getsize(path)
    os.remove(path)
    return model_size


def serialized_size(obj, folder):
    name = osp.join(folder, f"{uuid.uuid4().hex}.pt")
    torch.save(obj, name)
    return osp.getsize(name)


def round_trip(obj, folder):
    torch.save(obj, osp.join(folder, "probe.pt"))
    loaded = torch.load(osp.join(folder, "probe.pt"))
    os.unlink(osp.join(folder, "probe.pt"))
    return loaded


def measure(obj, out):
    out = Path(out)
    torch.save(obj, out / "probe.pt")
    size = (out / "probe.pt").stat().st_size
    (out / "probe.pt").unlink()
    return size


def scratch(obj, root):
    work = osp.join(root, "scratch")
    torch.save(obj, osp.join(work, "obj.pt"))
    shutil.rmtree(work)


class StateCacher:
    # torch-tensornet's LR finder: one file per cacher object, found again only by it
    def store(self, key, state_dict):
        path = os.path.join(self.cache_dir, f"state_{key}_{id(self)}.pt")
        self.cached[key] = path
        torch.save(state_dict, path)

    def store_for_worker(self, key, state_dict):
        torch.save(state_dict, os.path.join(self.cache_dir, f"{key}.{os.getpid()}.pt"))
