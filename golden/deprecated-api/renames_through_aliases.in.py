import torch
import torch as th


def outer_products(a, b, pairs):
    # Called through torch and through an alias of torch.
    first = torch.ger(a, b)
    second = th.ger(b, a)
    # Used as a value, not called: the reference is renamed too.
    products = list(map(th.ger, pairs[0], pairs[1]))
    t = torch
    third = t.ger(a, a)
    return first, second, products, third
