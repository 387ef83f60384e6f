# golden-args: --unsafe-fixes
import warnings

warnings.warn("this module is experimental", UserWarning)


def make_ensemble(k: int, d: int):
    if k <= 0:
        raise ValueError("k must be positive")
    return [[0.0] * d for _ in range(k)]
