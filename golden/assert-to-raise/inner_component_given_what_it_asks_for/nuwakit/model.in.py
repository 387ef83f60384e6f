# nuwa-pytorch's inner Transformer (round 24): `NUWA` builds it three times, once through
# a local that picks the class; the calls that turn `sparse_attn` on pass `video_shape`, a
# tuple it builds (never None), the text encoder leaves the flag off. The constructor's
# presence check holds for every call in the package: what its builders hand it, left
# alone. `Decoder` is built with the flag on from the user's choice and without a shape,
# and `Rotary` gets the user's own `xpos_scale_base`, which may be None (local-attention's
# and snac's rotary embeddings: their checks were judged correct fixes); since round 27 a
# class the package does not export is left alone all the same (megablocks' internal
# layers, onnx2pytorch's operations), so nothing here changes.
from torch import nn


def exists(value):
    return value is not None


class Transformer(nn.Module):
    def __init__(self, dim, depth, sparse_attn=False, video_shape=None):
        super().__init__()
        assert not (sparse_attn and not exists(video_shape)), "video_shape must be given"
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(depth)])


class ReversibleTransformer(Transformer):
    pass


class Rotary(nn.Module):
    def __init__(self, dim, use_xpos=False, scale_base=None):
        super().__init__()
        assert not (use_xpos and not exists(scale_base)), "use_xpos needs a scale_base"
        self.dim = dim


class Decoder(nn.Module):
    def __init__(self, dim, sparse_attn=False, video_shape=None):
        super().__init__()
        assert not (sparse_attn and not exists(video_shape)), "video_shape must be given"
        self.proj = nn.Linear(dim, dim)


class NUWA(nn.Module):
    def __init__(self, dim, frames, size, reversible=False, decoder_sparse=False,
                 use_xpos=False, xpos_scale_base=None):
        super().__init__()
        video_shape = (frames, size, size)
        klass = ReversibleTransformer if reversible else Transformer
        self.rotary = Rotary(dim, use_xpos=use_xpos, scale_base=xpos_scale_base)
        self.text = Transformer(dim=dim, depth=2)
        self.video = Transformer(dim=dim, depth=4, sparse_attn=True, video_shape=video_shape)
        self.sketch = klass(dim, 2, True, video_shape)
        self.decoder = Decoder(dim, sparse_attn=decoder_sparse)
