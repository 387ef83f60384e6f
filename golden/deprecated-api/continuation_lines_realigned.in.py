"""A call aligned with its opening bracket stays aligned once its callee is renamed; a
hanging indent is left as it is, and so is a call whose lines would then be too
long."""

import torch


def outer_products(a, b):
    first = torch.ger(a,
                      b)
    second = torch.ger(
        a,
        b,
    )
    # moved two columns right, its last line would be 89 long: left as it is
    third = torch.ger(a,
                      b + a + b + a + b + a + b + a + b + a + b + a + b + a + b + a[0])
    return first, second, third
