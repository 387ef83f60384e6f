import os
import tempfile

import torch


def save_atomically(obj, path):
    """The project's own atomic torch.save."""
    descriptor, temporary = tempfile.mkstemp(dir=os.path.dirname(path))
    os.close(descriptor)
    torch.save(obj, temporary)
    os.replace(temporary, path)
