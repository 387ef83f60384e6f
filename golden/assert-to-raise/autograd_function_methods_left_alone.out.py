import torch
from torch.autograd import Function


class GetMaxFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i, w, split_dim):
        assert split_dim == 0
        ctx.save_for_backward(i, w)
        return i @ w

    @staticmethod
    def backward(ctx, *args):
        assert len(args) == 1
        return args[0], None, None


class ScaledBase(Function):
    @staticmethod
    def setup_context(ctx, inputs, output):
        assert len(inputs) == 2
        ctx.factor = inputs[1]


class Scale(ScaledBase):
    @staticmethod
    def forward(x, factor):
        assert factor > 0, "factor must be positive"
        return x * factor


class Function2:
    def forward(self, x, split_dim):
        if split_dim != 0:
            raise ValueError("only the first dimension is split")
        return x


def scale(x, factor):
    if not (factor > 0):
        raise ValueError("factor must be positive")
    return Scale.apply(x, factor)
