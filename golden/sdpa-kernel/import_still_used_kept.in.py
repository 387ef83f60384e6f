import torch


def attend(model, x):
    with torch.backends.cuda.sdp_kernel(enable_math=False):
        return model(x)


def ones():
    return torch.ones(3)
