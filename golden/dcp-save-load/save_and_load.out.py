import torch.distributed.checkpoint as dcp


def save(model, optimizer, path):
    state = {"model": model.state_dict(), "optim": optimizer.state_dict()}
    dcp.save(state, storage_writer=dcp.FileSystemWriter(path))


def load(model, path):
    state = {"model": model.state_dict()}
    dcp.load(state_dict=state, storage_reader=dcp.FileSystemReader(path), no_dist=True)
    model.load_state_dict(state["model"])
