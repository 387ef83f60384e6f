import numpy as np


class ReplayBuffer:
    def __init__(self, capacity: int):
        self.capacity = capacity
        self.storage: list = []

    def state_dict(self):
        return {"storage": np.asarray(self.storage)}

    def load_state_dict(self, state):
        self.storage = list(state["storage"])


class ExponentialMovingAverage:
    """Takes `strict` like a module, but is not one."""

    def __init__(self, parameters, decay: float):
        self.shadow = [p.detach().clone() for p in parameters]
        self.decay = decay

    def load_state_dict(self, state_dict, strict=True):
        self.shadow = state_dict["shadow"]
