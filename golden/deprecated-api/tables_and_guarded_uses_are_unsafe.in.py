# A deprecated function held in a table of ops (lightning-thunder's registry of torch ops,
# round 22: it lists torch.outer already, so renaming torch.ger made `import thunder`
# fail) and a moved module used only where torch has distributed (the import the fix adds
# would run everywhere): unsafe fixes. A value handed on to be called is renamed as before.
import torch

_torch_ops = {
    torch.ger,
    torch.outer,
}

_leaf_types = {
    torch.Size,
    *((torch.distributed._tensor.DTensor,) if torch.distributed.is_available() else ()),
}


def products(pairs):
    return list(map(torch.ger, pairs[0], pairs[1]))
