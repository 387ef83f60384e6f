# golden-args: --unsafe-fixes
import numpy as np


def generate(n_centers, low, high, dimensions=None):
    n_features = len(low)
    if len(n_centers) != n_features:
        raise ValueError("expected len(n_centers) == n_features")
    if len(low) != len(high):
        raise ValueError("expected len(low) == len(high)")
    if not (dimensions is None or n_features == len(dimensions)):
        raise ValueError("expected dimensions is None or n_features == len(dimensions)")
    total = np.sum(low)
    assert total > 0, "the bounds must not cancel out"
    count = len(high)
    count = count - 1
    assert count >= 0, "no dimensions"
    scaled = low * 2
    assert scaled.shape == low.shape, "scaling keeps the shape"
    returns = list()
    for bound in (low, high):
        returns.append(bound)
    assert len(returns) > 1, "two bounds are needed"
    return n_features


def load(preprocessors, directories):
    for p in preprocessors:
        if not p.is_fitted:
            raise ValueError("All preprocessors must be fitted before using this class")
    for d, p in zip(directories, preprocessors):
        if d != p.img_path:
            raise ValueError("the folders do not match the preprocessors")
    for i, d in enumerate(directories):
        if not d:
            raise ValueError(f"directory {i} is empty")
    for step in range(3):
        assert step < 2, "too many steps"
    for p in preprocessors.values():
        assert p.is_fitted, "All preprocessors must be fitted before using this class"
