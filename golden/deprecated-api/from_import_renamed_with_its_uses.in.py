from torch import ger
from torch.utils._pytree import _register_pytree_node


class Pair:
    def __init__(self, left, right):
        self.left, self.right = left, right


_register_pytree_node(
    Pair,
    lambda pair: ([pair.left, pair.right], None),
    lambda values, context: Pair(*values),
)


def gram(x):
    return ger(x, x)
