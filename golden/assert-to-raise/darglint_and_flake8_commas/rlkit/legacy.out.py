def legacy(decay):
    """Darglint is off for this file.

    Args:
        decay: the decay.
    """
    if not (0 < decay < 1):
        raise ValueError("expected 0 < decay < 1")
    return decay
