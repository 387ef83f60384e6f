"""PPO, with a checkpoint every `save_every` updates (added after torchfix ran)."""

import os

import torch.nn.functional as F

from rlkit._torchfix_atomic_save import atomic_save


class PPO:
    def __init__(self, policy, optimizer, save_every=100):
        self.policy = policy
        self.optimizer = optimizer
        self.save_every = save_every

    def loss(self, logits, actions, advantages):
        return -(F.log_softmax(logits, -1).gather(-1, actions) * advantages).mean()

    def maybe_save(self, update, run_dir):
        if update % self.save_every == 0:
            state = {"policy": self.policy.state_dict(), "update": update}
            atomic_save(state, os.path.join(run_dir, f"ppo_{update}.pt"))
