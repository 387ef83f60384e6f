def make_legacy_buffer(capacity, device=None):
    if not (capacity > 0):
        raise ValueError('capacity must be positive')
    if not (device is None or isinstance(device, str)):
        raise TypeError(
            'expected device is None or isinstance(device, str)'
        )
    if device is not None:
        if device not in ('cpu', 'cuda'):
            raise ValueError('device must be cpu or cuda')
    if not isinstance(capacity, int):
        raise TypeError('capacity must be an int')
    return capacity
