# golden-args: --unsafe-fixes
def clip(x, low, high):
    """Clip x to [low, high].

    Args:
        x: the value.
        low: the lower bound.
        high: the upper bound.

    Returns:
        The clipped value.

    Raises:
        ValueError: low must not exceed high
    """
    if not (low <= high):
        raise ValueError("low must not exceed high")
    return min(max(x, low), high)


def undocumented(x, low):
    """No sections: pydoclint has nothing to check."""
    if not (low <= x):
        raise ValueError("expected low <= x")
    return x
