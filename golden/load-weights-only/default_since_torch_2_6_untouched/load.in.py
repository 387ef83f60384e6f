import torch


def load_weights(model, path):
    # torch >= 2.6 loads with weights_only=True by default: saying it changes nothing.
    model.load_state_dict(torch.load(path, map_location="cpu"))


def load_queue(path):
    return torch.load(path)["queue"]


def load_model(path):
    # A whole pickled module needs weights_only=False there: still offered.
    model = torch.load(path)
    model.eval()
    return model


def read_args(path):
    # Reported all the same: the default refuses the Namespace.
    return torch.load(path)["args"]
