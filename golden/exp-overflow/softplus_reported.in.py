import math


def softplus(x):
    return math.log(1 + math.exp(x))


def soft_margin(margin):
    return math.log1p(math.exp(-margin))
