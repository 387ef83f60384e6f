# golden-args: --unsafe-fixes
# `torch` is never imported here: the clamp is torch.clamp all the same, never a method.


def inverse(model):
    return torch.atanh(torch.clamp(model, -0.999999, 0.999999))
