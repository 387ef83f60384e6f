import torch


def autocast_state(enabled):
    # Without a device these mean CUDA and are not deprecated: nothing to change.
    was = torch.is_autocast_enabled()
    torch.set_autocast_enabled(enabled)
    return was
