def make_buffer(capacity, gamma, device=None, msg=None):
    assert capacity > 0
    assert 0.0 < gamma <= 1.0, f'gamma must be in (0, 1], got {gamma}'
    if device is not None:
        assert device in ('cpu', 'cuda'), 'device must be cpu or cuda'
    if capacity > 1_000_000:  # large buffers live on the host
        # pinned memory needs a device
        assert device is not None or capacity < 2_000_000
    assert isinstance(capacity, int), (
        'capacity must be an int, not a float or a string of digits'
    )
    return capacity, gamma
