import torch

MAX_ENVS = 512
assert MAX_ENVS > 0


class ReplayBuffer:
    assert MAX_ENVS % 2 == 0

    def __init__(self, capacity):
        self.capacity = capacity
        self.storage = []

    def sample(self, batch_size):
        assert len(self.storage) > 0, "sample() before add()"
        indices = torch.randint(len(self.storage), (batch_size,))
        assert indices.max() < len(self.storage)
        return [self.storage[i] for i in indices.tolist()]

    def _evict(self, n):
        assert n <= len(self.storage)
        del self.storage[:n]


def normalize_advantages(advantages, eps=1e-8):
    assert torch.isfinite(advantages).all(), "NaN advantages"
    advantages = advantages - advantages.mean()
    assert advantages.dim() == 1
    return advantages / (advantages.std() + eps)


def train(trainer, mode, batches):
    assert trainer.max_epochs is not None
    assert trainer.optimizer
    for batch in batches.split(2):
        assert batch.shape[0] > 0
    for step in range(3):
        assert mode != "eval"
        mode = "train"

    def closure(loss):
        assert loss.requires_grad
        return loss

    if mode == "train":
        return closure
    else:
        assert False, f"unknown mode {mode}"


class _RingIndex:
    def advance(self, steps):
        assert steps >= 0
        return steps


class PartitionHandler:
    def __init__(self, chunks):
        self.tensors = [[None] for _ in range(chunks)]

    def feed(self, chunk, input_idx, value):
        assert self.tensors[chunk][input_idx] is None
        self.tensors[chunk][input_idx] = value
