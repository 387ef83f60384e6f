"""`Any` bound only under `if TYPE_CHECKING:` does not exist when the helper is defined,
and an `Any` from another module is not typing's: the helper imports typing for its
annotations and leaves both names as they are."""

import os
from typing import TYPE_CHECKING

import torch

from .schema import Any

if TYPE_CHECKING:
    from typing import Any as AnyValue


def save_checkpoint(state: "AnyValue", folder: str, extra: Any) -> None:
    torch.save(state, os.path.join(folder, "checkpoint.pt"))


def run_save_checkpoint(state, folder, extra):
    save_checkpoint(state, folder, extra)
