# golden-args: --unsafe-fixes
import torch


def ratio_in_closure(new_logp, old_logp):
    diff = new_logp - old_logp

    def ratio():
        # another scope: `diff` here is not known to be the difference above
        return diff.exp()

    return ratio, diff.exp()


def rebound_to_something_else(new_logp, old_logp, offsets):
    diff = new_logp - old_logp
    diff = offsets - 1.0
    return diff.exp()


def copied_name(new_logp, old_logp):
    delta = new_logp - old_logp
    log_w = delta.detach()
    return torch.exp(log_w)


def walrus(new_logp, old_logp):
    if (delta := new_logp - old_logp).abs().max() > 1.0:
        return delta.exp()
    return None
