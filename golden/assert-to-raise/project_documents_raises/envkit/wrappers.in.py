def clip(action, lower_bound, upper_bound, margin=0.0):
    """Clip an action into the box.

    Args:
        action: the action.
        lower_bound: the lower bound.
        upper_bound: the upper bound.
        margin: kept inside the bounds.

    Returns:
        The clipped action.
    """
    assert isinstance(margin, float)
    assert 0.0 <= margin < (upper_bound - lower_bound) / 2.0 and lower_bound <= upper_bound
    return min(max(action, lower_bound + margin), upper_bound - margin)


def scale(action, factor):
    """Scale an action.

    Args:
        action: the action.
        factor: the factor.

    Raises:
        TypeError: If the action is not a number.
    """
    if not isinstance(action, (int, float)):
        raise TypeError("a number")
    assert factor > 0, "factor must be positive"
    return action * factor


def shift(action, offset):
    """A summary only: no section to add an entry to."""
    assert offset >= 0, "offset must not be negative"
    return action + offset


def frame_stack(frames, n):
    """Stack frames.

    Args:
        frames: the frames.
        n: how many."""
    assert n > 0, "n must be positive"
    return frames[-n:]


def normalize(obs, mean, std):
    """Normalize an observation.

    Parameters
    ----------
    obs : array
        The observation.
    mean : float
        The mean.
    std : float
        The standard deviation.
    """
    assert std > 0, "std must be positive"
    return (obs - mean) / std


class Recorder:
    def record(self, path, every):
        """Record episodes.

        :param path: where to.
        :param every: how often.
        """
        assert every > 0, "every must be positive"
        return path
