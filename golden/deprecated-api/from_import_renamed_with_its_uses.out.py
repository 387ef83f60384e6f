from torch import outer
from torch.utils._pytree import register_pytree_node


class Pair:
    def __init__(self, left, right):
        self.left, self.right = left, right


register_pytree_node(
    Pair,
    lambda pair: ([pair.left, pair.right], None),
    lambda values, context: Pair(*values),
)


def gram(x):
    return outer(x, x)
