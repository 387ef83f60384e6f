import torch
from functorch import vmap
from torch.library import impl_abstract


@impl_abstract("mylib::scale")
def _(x, factor):
    return torch.empty_like(x)


def outer(a, b):
    return vmap(torch.dot)(a, b), torch.ger(a, b)
