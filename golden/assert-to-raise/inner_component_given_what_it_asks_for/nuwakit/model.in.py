# nuwa-pytorch's inner Transformer (round 24): `NUWA` builds it three times, through a
# local that picks the class; the calls that turn `sparse_attn` on pass `video_shape`,
# the text encoder leaves the flag off. The constructor's presence check holds for every
# call in the package: what its builders hand it, left alone. `Decoder` is built once with
# the flag on from the user's choice and without a shape: its check is kept as a fix.
# `Attention` is built with the transformer's `**attn_kwargs` (transfusion-pytorch, round
# 24): nothing is known of what its constructor gets, but its `forward` is called by the
# package alone, and whether it was handed a mask or positions is that wiring: left alone.
from torch import nn


def exists(value):
    return value is not None


class Attention(nn.Module):
    def __init__(self, dim, **kwargs):
        super().__init__()
        self.to_qkv = nn.Linear(dim, dim * 3)

    def forward(self, x, mask=None, positions=None):
        assert not (exists(mask) and exists(positions)), "pass a mask or positions"
        return self.to_qkv(x)


class Transformer(nn.Module):
    def __init__(self, dim, depth, sparse_attn=False, video_shape=None, **attn_kwargs):
        super().__init__()
        assert not (sparse_attn and not exists(video_shape)), "video_shape must be given"
        self.layers = nn.ModuleList([Attention(dim, **attn_kwargs) for _ in range(depth)])


class ReversibleTransformer(Transformer):
    pass


class Decoder(nn.Module):
    def __init__(self, dim, sparse_attn=False, video_shape=None):
        super().__init__()
        assert not (sparse_attn and not exists(video_shape)), "video_shape must be given"
        self.proj = nn.Linear(dim, dim)


class NUWA(nn.Module):
    def __init__(self, dim, video_shape, reversible=False, decoder_sparse=False):
        super().__init__()
        klass = ReversibleTransformer if reversible else Transformer
        self.text = Transformer(dim=dim, depth=2)
        self.video = Transformer(dim=dim, depth=4, sparse_attn=True, video_shape=video_shape)
        self.sketch = klass(dim, 2, True, video_shape)
        self.decoder = Decoder(dim, sparse_attn=decoder_sparse)
