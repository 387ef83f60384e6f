def linear(round_num, rampdown_rounds):
    """Linearly decreasing schedule.

    Args:
        round_num: the current round.
        rampdown_rounds: rounds until it reaches 0.

    Returns:
        The coefficient.

    Raises:
        ValueError: round_num must be non-negative
    """
    if not (round_num >= 0):
        raise ValueError("round_num must be non-negative")
    return max(0, 1 - round_num / rampdown_rounds)


def exponential(round_num, decay):
    """Exponentially decreasing schedule.

    Args:
        round_num: the current round.
        decay: the decay.

    Raises:
        KeyError: never.
        TypeError: If `isinstance(decay, float)` does not hold.
        ValueError: If an argument is invalid.
    """
    if not isinstance(decay, float):
        raise TypeError("expected isinstance(decay, float)")
    if not (0 < decay < 1):
        raise ValueError("expected 0 < decay < 1")
    if not (round_num >= 0):
        raise ValueError("expected round_num >= 0")
    return decay**round_num


def documented(decay):
    """Already documented.

    Args:
        decay: the decay.

    Raises:
        ValueError: if decay is out of range.
    """
    if not (0 < decay < 1):
        raise ValueError("expected 0 < decay < 1")
    return decay


def one_line(decay):
    """A one-line docstring: darglint's short strictness accepts it as it is."""
    if not (0 < decay < 1):
        raise ValueError("expected 0 < decay < 1")
    return decay


class Sampler:
    def sample(self, mode, size):
        """Sample.

        :param mode: "train" or "eval"
        :param size: how many
        :raises ValueError: If an argument is invalid.
        """
        if mode not in ("train", "eval"):
            raise ValueError(f"unknown mode {mode}")
        if not (size > 0):
            raise ValueError(
                f"size must be positive, got {size}: ask the sampler for one at least",
            )
        return size


def numpy_style(values, axis):
    r"""Reduce.

    Parameters
    ----------
    values : array
        The values.
    axis : int
        The axis.

    Returns
    -------
    array
        The result.

    Raises
    ------
    ValueError
        axis must be 0 or 1
    """
    if axis not in (0, 1):
        raise ValueError("axis must be 0 or 1")
    return values


def closing_on_the_text_line(decay):
    """Closing quotes on the last text line.

    Args:
        decay: the decay."""
    if not (0 < decay < 1):
        raise ValueError("expected 0 < decay < 1")
    return decay
