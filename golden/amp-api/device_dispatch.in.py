import torch


def make_scaler(model, use_amp):
    if not use_amp:
        return None
    device_type = next(model.parameters()).device.type
    if device_type == "npu":
        return torch.npu.amp.GradScaler()
    elif device_type == "cuda":
        return torch.cuda.amp.GradScaler()
    else:
        return torch.amp.GradScaler(device_type)
