from .tensor import Tensor


class Module:
    def __setattr__(self, name, value):
        if isinstance(value, Tensor) and value.require_grad:
            self.__dict__.setdefault("_params", []).append(value)
        object.__setattr__(self, name, value)
