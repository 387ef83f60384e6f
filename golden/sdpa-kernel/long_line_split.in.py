import torch


def run(model, x):
    if x is not None:
        with torch.backends.cuda.sdp_kernel(enable_flash=False) as k:
            model(x, k)
        with torch.backends.cuda.sdp_kernel(enable_flash=False, enable_cudnn=False, enable_math=True):
            model(x)
