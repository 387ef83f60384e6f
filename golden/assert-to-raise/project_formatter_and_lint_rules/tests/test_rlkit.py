from rlkit.buffer import make_buffer


def test_make_buffer():
    assert make_buffer(8, 0.99) == (8, 0.99)
