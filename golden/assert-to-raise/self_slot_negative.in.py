class Table:
    def __init__(self, tensors):
        self.tensors = tensors

    def feed(self, chunk, value):
        assert value is not None, "feed a value"
        assert self.tensors[chunk] is not None or chunk >= 0, "unknown chunk"
        self.tensors[chunk] = value
