from typing import TypeAlias

import torch

BoolTensor: TypeAlias = torch.Tensor  # integer and boolean results, by intent
FloatTensor: TypeAlias = torch.Tensor
