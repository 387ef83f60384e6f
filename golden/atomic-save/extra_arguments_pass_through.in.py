# golden-args: --unsafe-fixes
import pickle

import dill
import torch


def save_variants(state, path):
    torch.save(state, path, pickle_protocol=pickle.HIGHEST_PROTOCOL)
    torch.save(state, path + ".legacy", _use_new_zipfile_serialization=False)
    torch.save(obj=state, f=path + ".dill", pickle_module=dill)
    torch.save(state, f=path + ".v2", pickle_protocol=2)
