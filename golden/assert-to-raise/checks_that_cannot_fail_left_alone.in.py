# golden-args: --unsafe-fixes
import numpy as np


class OpenMax:
    def fit(self, x, y, z, w):
        classes = np.unique(y)
        self.n_dims = x.shape[1]
        width = z.shape[0] if z is not None else 0
        assert x is not None
        assert y is not None
        assert z is not None
        if w:
            w[0] = 1
        assert w is not None
        assert y.ndim == 1, "sanity check: labels are flat"
        return width, classes
