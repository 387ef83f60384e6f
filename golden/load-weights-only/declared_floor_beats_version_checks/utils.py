import torch
from packaging import version

# A stale check: the requirements say torch 2.0, and a declared floor wins.
if version.parse(torch.__version__) < version.parse("1.10"):
    raise RuntimeError("torch is too old")
LEGACY = torch.__version__ < "1.8"
