"""torch imported under try: the module works without it."""

try:
    import torch
except ImportError:
    torch = None


def save_checkpoint(model, path):
    torch.save(model.state_dict(), path)
