def legacy(decay):
    """Darglint is off for this file.

    Args:
        decay: the decay.
    """
    assert 0 < decay < 1
    return decay
