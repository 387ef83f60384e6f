import fsspec
import torch


def pt_save(pt_obj, file_path):
    of = fsspec.open(file_path, "wb")
    with of as f:
        torch.save(pt_obj, file_path)


def save_twice(state, path):
    with open(path, mode="wb") as handle:
        torch.save(state, path)

