# golden-args: --unsafe-fixes
import numpy as np


class OpenMax:
    def fit(self, x, y, z, w):
        classes = np.unique(y)
        self.n_dims = x.shape[1]
        width = z.shape[0] if z is not None else 0
        assert x is not None
        if y is None:
            raise ValueError("expected y is not None")
        if z is None:
            raise ValueError("expected z is not None")
        if w:
            w[0] = 1
        if w is None:
            raise ValueError("expected w is not None")
        assert y.ndim == 1, "sanity check: labels are flat"
        return width, classes
