import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint import load_state_dict


def save(model, optimizer, path):
    state = {"model": model.state_dict(), "optim": optimizer.state_dict()}
    dcp.save_state_dict(state, dcp.FileSystemWriter(path))


def load(model, path):
    state = {"model": model.state_dict()}
    load_state_dict(state_dict=state, storage_reader=dcp.FileSystemReader(path), no_dist=True)
    model.load_state_dict(state["model"])
