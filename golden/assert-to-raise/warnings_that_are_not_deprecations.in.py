# golden-args: --unsafe-fixes
import warnings

warnings.warn("this module is experimental", UserWarning)


def make_ensemble(k: int, d: int):
    assert k > 0, "k must be positive"
    return [[0.0] * d for _ in range(k)]
