import pytest
import torch
from torch.backends.cuda import SDPBackend
from transformers import AutoConfig


@pytest.mark.parametrize("name", ["gpt2"])
def test_backends(name):
    model = AutoConfig.from_pretrained(name)
    with torch.backends.cuda.sdp_kernel(enable_mem_efficient=False):
        model(SDPBackend.MATH)
