import math

import jax.numpy as jnp
import numpy as np


def numpy_ratio(log_prob, old_log_prob):
    # numpy has no autograd; an inf here is a RuntimeWarning, not a NaN gradient
    return np.exp(log_prob - old_log_prob)


def jax_ratio(next_log_prob, sampled_log_prob):
    return jnp.exp(next_log_prob - sampled_log_prob)


def python_ratio(log_ratio):
    # math.exp raises OverflowError instead of returning inf
    return math.exp(log_ratio)
