from torch import nn


class Norm(nn.Module):
    """Exported from the package's __init__: users build it, its checks check their input."""

    def __init__(self, dim, eps=1e-5):
        super().__init__()
        if not (eps > 0):
            raise ValueError("eps must be positive")
        self.eps = eps

    def forward(self, x, scale=None):
        if scale is not None and self.eps > 1:
            raise ValueError("scale needs a small eps")
        return x


class Head(nn.Module):
    """Built by the package, but from its caller's arguments forwarded wholesale."""

    def __init__(self, dim, num_classes):
        super().__init__()
        assert num_classes > 0, "num_classes must be positive"

    def forward(self, x, labels=None):
        assert labels is None or self.training, "labels are for training"
        return x
