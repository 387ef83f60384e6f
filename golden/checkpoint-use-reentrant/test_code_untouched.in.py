# golden-path: tests/test_dynamo.py
# A test exercises what the default does, and a compiler under test may reject the
# keyword (lightning-thunder's dynamo tests, round 22): test code is left alone.
import torch
from torch.utils.checkpoint import checkpoint


def test_checkpointed_block(block, x):
    out = checkpoint(block, x)
    assert torch.allclose(out, block(x))
