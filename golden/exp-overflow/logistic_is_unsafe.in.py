import math as m


def shaped_reward(progress, k=5.0):
    return 1 / (1 + m.exp(-k * progress))


class IonicModel:
    # an attribute the class changes (`self.V += dv`) is data, not a setting
    def __init__(self):
        self.V = -87.0

    def step(self, dv):
        self.V += dv
        return 1.0 / (1.0 + m.exp((-(self.V + 39.57)) / 9.871))
