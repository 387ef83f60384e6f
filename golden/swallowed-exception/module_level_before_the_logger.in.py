import logging

import torch

try:
    torch.backends.cuda.matmul.allow_tf32 = True
except Exception:
    pass

logger = logging.getLogger(__name__)
