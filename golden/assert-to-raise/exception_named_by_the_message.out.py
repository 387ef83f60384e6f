from rlkit import errors


class Reward:
    def __init__(self, kind, reduction="none", scale=1.0):
        if reduction == "sum":
            raise NotImplementedError
        if kind not in ("dense", "sparse"):
            raise NotImplementedError(f"unknown kind {kind}")
        if not (scale > 0):
            raise errors.ConfigError("scale must be positive")
        if type(scale) is not float:
            raise TypeError("expected type(scale) is float")
        if not (callable(kind) or isinstance(kind, str)):
            raise TypeError("kind must be a name or a function")

    def __getitem__(self, idx):
        if not (idx < len(self.files)):
            raise IndexError("Layer index is out of bounds!")
        if idx == 3:
            raise ValueError("index 3 is reserved")
        return idx

    def layer(self, idx, error):
        if not (idx < len(self.files)):
            raise ValueError("Layer index is out of bounds!")
        if not (idx >= 0):
            raise ValueError(error)
