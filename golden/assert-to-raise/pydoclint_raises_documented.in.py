# golden-args: --unsafe-fixes
def clip(x, low, high):
    """Clip x to [low, high].

    Args:
        x: the value.
        low: the lower bound.
        high: the upper bound.

    Returns:
        The clipped value.
    """
    assert low <= high, "low must not exceed high"
    return min(max(x, low), high)


def undocumented(x, low):
    """No sections: pydoclint has nothing to check."""
    assert low <= x
    return x
