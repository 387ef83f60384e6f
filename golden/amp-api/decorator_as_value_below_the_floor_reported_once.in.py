# A deprecated decorator passed as a value (xlstm's `conditional_decorator(flag,
# torch.cuda.amp.custom_fwd)`) in a project whose floor, torch 2.0, predates
# torch.amp.custom_fwd (2.4): one report says to keep it; how to migrate it by hand is
# moot there, so it is not said as well.
import torch


def conditional_decorator(condition, decorator):
    return decorator if condition else (lambda function: function)


class Function(torch.autograd.Function):
    @staticmethod
    @conditional_decorator(True, torch.cuda.amp.custom_fwd)
    def forward(ctx, x):
        return x

    @staticmethod
    @conditional_decorator(True, torch.cuda.amp.custom_bwd)
    def backward(ctx, grad):
        return grad
