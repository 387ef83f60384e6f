import torch
import torch as th


def outer_products(a, b, pairs):
    # Called through torch and through an alias of torch.
    first = torch.outer(a, b)
    second = th.outer(b, a)
    # Used as a value, not called: the reference is renamed too.
    products = list(map(th.outer, pairs[0], pairs[1]))
    t = torch
    third = t.outer(a, a)
    return first, second, products, third
