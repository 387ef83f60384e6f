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


def save_options(disable_byteorder_record):
    # torchwrench (round 42): reads about torch.save, passes nothing on
    import inspect

    if "_disable_byteorder_record" in inspect.getargs(torch.save.__code__).args:
        return {"_disable_byteorder_record": disable_byteorder_record}
    return {}
