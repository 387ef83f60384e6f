class Resize:
    """A transform in a module that registers nothing: its check is converted as usual."""

    def __init__(self, size):
        assert len(size) == 2, "size must be (h, w)"
        self.size = size
