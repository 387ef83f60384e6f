def make_buffer(capacity, gamma, device=None, msg=None):
    if not (capacity > 0):
        message = 'expected capacity > 0'
        raise ValueError(message)
    if not (0.0 < gamma <= 1.0):
        message = f'gamma must be in (0, 1], got {gamma}'
        raise ValueError(message)
    if device is not None and device not in ('cpu', 'cuda'):
        message = 'device must be cpu or cuda'
        raise ValueError(message)
    if capacity > 1_000_000 and not (
        device is not None or capacity < 2_000_000
    ):  # large buffers live on the host
        # pinned memory needs a device
        message = 'expected device is not None or capacity < 2_000_000'
        raise ValueError(message)
    if not isinstance(capacity, int):
        message = (
            'capacity must be an int, not a float or a string of digits'
        )
        raise TypeError(message)
    return capacity, gamma
