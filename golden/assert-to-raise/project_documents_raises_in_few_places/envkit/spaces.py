"""Spaces: a few functions document what they raise, most do not."""


def box(low, high):
    """A box.

    Args:
        low: the lower bound.
        high: the upper bound.

    Raises:
        ValueError: If low is above high.

    Returns:
        The box.
    """
    if low > high:
        raise ValueError("low is above high")
    return (low, high)


def discrete(n):
    """A discrete space.

    Args:
        n: how many values.
    """
    if n <= 0:
        raise ValueError("n must be positive")
    return n


def flat(space):
    """Flatten a space.

    Args:
        space: the space.
    """
    if not isinstance(space, tuple):
        raise TypeError("a tuple")
    return list(space)


def sample(space, rng):
    """Sample a space.

    :param space: the space.
    :param rng: the generator.
    :raises ValueError: if the space is empty.
    """
    if not space:
        raise ValueError("empty")
    return rng.choice(space)


def unflatten(values, like):
    """Unflatten values.

    Args:
        values: the values.
        like: the space.
    """
    if len(values) != len(like):
        raise ValueError("lengths differ")
    return tuple(values)


def stub(space):
    """Abstract: NotImplementedError is no raise the project documents.

    Args:
        space: the space.
    """
    raise NotImplementedError


def contains(space, x):
    """Whether x is in space.

    Args:
        space: the space.
        x: the value.
    """
    if space is None:
        raise ValueError("no space")
    return x in space
