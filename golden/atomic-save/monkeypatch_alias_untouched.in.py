# golden-args: --unsafe-fixes
import time

import torch

_torch_save = torch.save  # the original, for the patched version below


def torch_save(*args, **kwargs):
    """torch.save with retries: network filesystems fail now and then."""
    for attempt in range(4):
        try:
            return _torch_save(*args, **kwargs)
        except RuntimeError:
            if attempt == 3:
                raise
            time.sleep(2**attempt)


torch.save = torch_save
