from pathlib import Path

import torch


def directory_opener(root):
    def open_file(relative_path):
        return (Path(root) / relative_path).open("wb")

    return open_file


def save_attributes(attributes, root):
    open_file = directory_opener(root)
    with open_file("attributes.pt") as file:
        torch.save(attributes, file)


def save_through(storage, key, state):
    with storage.writer(key) as out:
        torch.save(state, out)


def save_with_builtin_open(state, path):
    with open(path, "wb") as file:
        torch.save(state, file)
