import pytest
from torch.backends.cuda import SDPBackend
from torch.nn.attention import sdpa_kernel
from transformers import AutoConfig


@pytest.mark.parametrize("name", ["gpt2"])
def test_backends(name):
    model = AutoConfig.from_pretrained(name)
    with sdpa_kernel(
        [SDPBackend.FLASH_ATTENTION, SDPBackend.MATH, SDPBackend.CUDNN_ATTENTION]
    ):
        model(SDPBackend.MATH)
