from rlkit import errors


class Reward:
    def __init__(self, kind, reduction="none", scale=1.0):
        assert reduction != "sum", NotImplementedError
        assert kind in ("dense", "sparse"), NotImplementedError(f"unknown kind {kind}")
        assert scale > 0, errors.ConfigError("scale must be positive")
        assert type(scale) is float
        assert callable(kind) or isinstance(kind, str), "kind must be a name or a function"

    def __getitem__(self, idx):
        assert idx < len(self.files), "Layer index is out of bounds!"
        assert idx != 3, "index 3 is reserved"
        return idx

    def layer(self, idx, error):
        assert idx < len(self.files), "Layer index is out of bounds!"
        assert idx >= 0, error
