import torch

MAX_ENVS = 512
if MAX_ENVS <= 0:
    raise ValueError("expected MAX_ENVS > 0")


class ReplayBuffer:
    if MAX_ENVS % 2 != 0:
        raise ValueError("expected MAX_ENVS % 2 == 0")

    def __init__(self, capacity):
        self.capacity = capacity
        self.storage = []

    def sample(self, batch_size):
        if len(self.storage) == 0:
            raise ValueError("sample() before add()")
        indices = torch.randint(len(self.storage), (batch_size,))
        if not (indices.max() < len(self.storage)):
            raise ValueError("expected indices.max() < len(self.storage)")
        return [self.storage[i] for i in indices.tolist()]

    def _evict(self, n):
        if not (n <= len(self.storage)):
            raise ValueError("expected n <= len(self.storage)")
        del self.storage[:n]


def normalize_advantages(advantages, eps=1e-8):
    if not torch.isfinite(advantages).all():
        raise ValueError("NaN advantages")
    advantages = advantages - advantages.mean()
    if advantages.dim() != 1:
        raise ValueError("expected advantages.dim() == 1")
    return advantages / (advantages.std() + eps)


def train(trainer, mode, batches):
    if trainer.max_epochs is None:
        raise ValueError("expected trainer.max_epochs is not None")
    if not trainer.optimizer:
        raise ValueError("expected trainer.optimizer")
    for batch in batches.split(2):
        if batch.shape[0] == 0:
            raise ValueError("expected batch.shape[0] > 0")
    for step in range(3):
        if mode == "eval":
            raise ValueError('expected mode != "eval"')
        mode = "train"

    def closure(loss):
        if not loss.requires_grad:
            raise ValueError("expected loss.requires_grad")
        return loss

    if mode == "train":
        return closure
    else:
        raise AssertionError(f"unknown mode {mode}")


class _RingIndex:
    def advance(self, steps):
        if not (steps >= 0):
            raise ValueError("expected steps >= 0")
        return steps


def pick_device(name):
    if name == "cpu":
        return name
    elif name.startswith("cuda"):
        return name
    raise AssertionError
