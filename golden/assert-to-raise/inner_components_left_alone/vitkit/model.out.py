from functools import partial

from torch import nn

from vitkit.layers import Head, Norm


def exists(value):
    return value is not None


class Block(nn.Module):
    """A building block: every call passes `stride` a literal."""

    def __init__(self, dim, stride=1, cross_attend=False):
        super().__init__()
        assert stride in (1, 2)
        assert dim > 0, "dim must be positive"
        self.cross_attend = cross_attend

    def forward(self, x, context=None):
        assert not (exists(context) ^ self.cross_attend), "context iff cross attending"
        assert x.ndim == 3, "expected (batch, tokens, dim)"
        return x

    def merge(self, x, keep=True):
        assert keep, "a flag's value, not whether it was passed"
        return x

    def select(self, language):
        assert language in self.languages, "a value the user may have passed on"
        return language


class Attention(nn.Module):
    """A building block whose `heads` comes from the model's own caller."""

    def __init__(self, dim, heads):
        super().__init__()
        assert dim % heads == 0, "dim must be divisible by heads"

    def forward(self, x, mask=None):
        assert mask is None or exists(x), "a mask needs an input"
        return x


class Pool(nn.Module):
    """Built through functools.partial: the later call may pass anything."""

    def __init__(self, dim, mode="mean"):
        super().__init__()
        assert mode in ("mean", "cls")

    def forward(self, x, keep=None):
        assert keep is None or exists(x)
        return x


class Model(nn.Module):
    def __init__(self, dim, heads, num_classes, **head_kwargs):
        super().__init__()
        if dim % 8 != 0:
            raise ValueError("dim must be divisible by 8")
        self.blocks = nn.ModuleList([Block(dim, 1), Block(dim, 2, cross_attend=True)])
        self.attn = Attention(dim, heads)
        self.norm = Norm(dim, 1e-6)
        self.pool = partial(Pool, dim)()
        self.head = Head(dim, num_classes, **head_kwargs)

    def forward(self, x):
        if x.ndim != 3:
            raise ValueError("expected (batch, tokens, dim)")
        return self.head(self.norm(self.attn(self.blocks[0](x))))


class Demo(nn.Module):
    """Not exported, and built only by the demo below: a model users build themselves."""

    def __init__(self, depth):
        super().__init__()
        assert depth > 0, "depth must be positive"


if __name__ == "__main__":
    Demo(2)
