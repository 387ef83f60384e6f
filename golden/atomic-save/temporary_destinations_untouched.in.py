import os
import tempfile

import torch


def roundtrip_size(model):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "model.pt")
        torch.save(model.state_dict(), path)
        return os.path.getsize(path)


def stash(state, tmp_dir):
    torch.save(state, os.path.join(tmp_dir, "stash.pt"))


def debug_dump(state):
    torch.save(state, "/tmp/debug_state.pt")
    torch.save(state, tempfile.mkdtemp() + "/state.pt")


def fake_state_dict_size(fake_state_dict):
    scratch_path = "/tmp/fake_state_dict.pt"
    torch.save(fake_state_dict, scratch_path)
    return os.path.getsize(scratch_path)
