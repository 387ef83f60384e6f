from pathlib import Path
from typing import IO, cast

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


class Checkpointer:
    def save(self, name: str, **extra) -> None:
        data = {"model": self.model.state_dict(), **extra}
        save_file = f"{self.save_dir}/{name}.pth"
        with self.path_manager.open(save_file, "wb") as f:
            torch.save(data, cast(IO[bytes], f))  # the handle, cast for the type checker
