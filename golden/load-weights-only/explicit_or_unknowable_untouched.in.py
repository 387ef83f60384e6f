import json
import pickle

import dill
import torch


def restore(model, path, trusted, **load_kwargs):
    model.load_state_dict(torch.load(path, weights_only=True))
    everything = torch.load(trusted, weights_only=False)
    passed_on = torch.load(path, **load_kwargs)  # the caller may pass weights_only
    legacy = torch.load(path, pickle_module=dill)  # reported: weights_only cannot use dill
    config = json.load(open(path + ".json"))
    data = pickle.load(open(path + ".pkl", "rb"))
    return everything, passed_on, legacy, config, data
