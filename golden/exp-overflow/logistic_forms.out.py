# golden-args: --unsafe-fixes
import math
from math import exp


def attribution_discount(total_improvement: float, steepness: float) -> float:
    return 1.0 / (1.0 + math.exp(min(-steepness * total_improvement, 700.0)))


def gate(score, temperature=0.1):
    denominator = exp(min((0.5 - score) / temperature, 700.0)) + 1
    return 1 / denominator


def win_probability(rating_a, rating_b):
    diff = rating_a - rating_b
    return math.exp(min(diff, 700.0)) / (1 + math.exp(min(diff, 700.0)))
