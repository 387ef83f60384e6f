# golden-args: --unsafe-fixes
# The code chooses between the APIs by what the installed torch offers (spikingjelly,
# round 23): the old call is the fallback for a dcp.load without `no_dist`, and moving it
# to dcp.load would raise TypeError exactly where that branch runs.
import inspect

import torch.distributed.checkpoint as dcp


def load(state, checkpoint_id):
    if "no_dist" in inspect.signature(dcp.load).parameters:
        dcp.load(state, checkpoint_id=checkpoint_id, no_dist=True)
    else:
        dcp.load_state_dict(
            state, storage_reader=dcp.FileSystemReader(checkpoint_id), no_dist=True
        )


def save(state, checkpoint_id):
    dcp.save(state, storage_writer=dcp.FileSystemWriter(checkpoint_id))
