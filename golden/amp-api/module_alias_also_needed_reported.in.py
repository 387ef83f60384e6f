from torch.cuda import amp


def setup(use_amp: bool):
    if amp.common.amp_definitely_not_available():
        use_amp = False
    return amp.GradScaler(enabled=use_amp), use_amp
