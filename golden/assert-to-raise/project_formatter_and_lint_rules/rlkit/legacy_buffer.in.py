def make_legacy_buffer(capacity, device=None):
    assert capacity > 0, 'capacity must be positive'
    assert device is None or isinstance(device, str)
    if device is not None:
        assert device in ('cpu', 'cuda'), 'device must be cpu or cuda'
    assert isinstance(capacity, int), (
        'capacity must be an int'
    )
    return capacity
