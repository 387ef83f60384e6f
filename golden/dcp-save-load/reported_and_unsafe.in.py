import torch.distributed.checkpoint as dcp


def save(app_state, path, group):
    # Values with state_dict() (a Stateful app state) are handled differently by dcp.save.
    dcp.save_state_dict(app_state, dcp.FileSystemWriter(path), group)
    dcp.save_state_dict(app_state, dcp.FileSystemWriter(path), coordinator_rank=1)
