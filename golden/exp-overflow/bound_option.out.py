# golden-args: --unsafe-fixes
import math


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(min(-x, 80.0)))
