"""The file puts its from-import first (catalyst's `from typing import ...` above `import
collections`): the helper's plain imports go among the plain ones, after `import re`,
where the file's own order puts them, not above the from-import."""

from typing import Callable, Dict
import collections
import os
import re

import torch


def save_checkpoint(checkpoint: Dict, path: str, hook: Callable) -> None:
    hook(collections.OrderedDict(), os.path.basename(path), re.escape(path))
    torch.save(checkpoint, path)


def run_save_checkpoint(checkpoint, path, hook):
    save_checkpoint(checkpoint, path, hook)
