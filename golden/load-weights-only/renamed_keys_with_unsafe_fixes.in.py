# golden-args: --unsafe-fixes
import torch


def load_renamed(model, path):
    # Keys renamed on the way, but it all ends in load_state_dict: the unsafe fix is offered.
    ckpt = torch.load(path, map_location="cpu")
    state = ckpt["state_dict"] if "state_dict" in ckpt else ckpt
    state.pop("epoch")
    model.load_state_dict({k.replace("module.", ""): v for k, v in state.items()})


def load_anything(path):
    # Returned: what it holds is unknown here, so it is only reported.
    return torch.load(path, map_location="cpu")
