import torch
from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler


def scaler_state(scaler):
    if isinstance(scaler, (torch.cuda.amp.GradScaler, ShardedGradScaler)):
        return scaler.state_dict()
    return None


def make_scaler(sharded: bool):
    return ShardedGradScaler() if sharded else torch.cuda.amp.GradScaler()
