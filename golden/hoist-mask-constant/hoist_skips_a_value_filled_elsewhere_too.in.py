# golden-args: --unsafe-fixes
# torch-struct (round 29): -1e5 is a semiring's zero; `fill_` writes it beside the masked
# fills. A constant named for masks would split one value in two names: not hoisted.
import torch


class LogSemiring:
    @staticmethod
    def zero_mask_(xs, mask):
        xs[0].masked_fill_(mask, -1e5)
        xs[1].masked_fill_(mask, -1e5)

    @staticmethod
    def zero_(xs):
        xs[0].fill_(-1e5)
        xs[1].fill_(-1e5)


class MaxSemiring:
    @staticmethod
    def zero_mask_(xs, mask):
        xs[0].masked_fill_(mask, -1e5)
        xs[1].masked_fill_(mask, -1e5)

    @staticmethod
    def zero(xs):
        return torch.full_like(xs, -1e5)
