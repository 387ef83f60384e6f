# golden-args: --unsafe-fixes
import torch
from torch.optim.lr_scheduler import CosineAnnealingLR


def load_training_state(ckpt, params, obs_rms):
    opt = torch.optim.AdamW(params, lr=3e-4)
    sched = CosineAnnealingLR(opt, T_max=1000)
    grad_scaler = torch.amp.GradScaler("cuda")
    opt.load_state_dict(ckpt["opt"])
    sched.load_state_dict(ckpt["sched"])
    grad_scaler.load_state_dict(ckpt["scaler"])
    obs_rms.load_state_dict(ckpt["obs_rms"])
    ckpt["obs_normalizer"].load_state_dict(ckpt["norm"])
    return opt, sched
