import torch
from torch import nn


class ReplayPool:
    def load_state_dict(self, state_dict):
        self.state = state_dict


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 2)


class Actor(nn.Module):
    pass


OptimizerLike = torch.optim.Optimizer | ReplayPool


def make_policy() -> Policy:
    return Policy()


class Agent:
    def __init__(self):
        self.actor = Actor()
        self.pool = ReplayPool()
        self._policy = make_policy()

    @property
    def policy(self) -> Policy:
        return self._policy


class Backend:
    def load_state_dict(self, state_dict):
        self.state = state_dict


class Learner:
    def __init__(self):
        self._backend = None

    def start(self):
        self._backend = Backend()


class LearnerState:
    def __init__(self, learner: Learner):
        self.learner = learner

    @property
    def _pool(self):
        pool = getattr(self, "_pool_value", None)
        if pool is None:
            pool = self._pool_value = ReplayPool()
        return pool

    def load_state_dict(self, state_dict):
        backend = self.learner._backend
        backend.load_state_dict(state_dict["backend"])
        self._pool.load_state_dict(state_dict["pool"])


class Trainer:
    def __init__(self, optimizer: torch.optim.Optimizer, pool: ReplayPool, components):
        self.optimizer = optimizer
        self._pool = pool
        self.agent = Agent()
        self.components = components

    def _single_optimizer(self) -> torch.optim.Optimizer:
        return self.optimizer

    def _require_pool(self) -> ReplayPool:
        return self._pool

    def _any_optimizer(self) -> OptimizerLike:
        return self.optimizer

    def build_policy(self) -> Policy:
        return make_policy()

    def load(self, checkpoint):
        self._single_optimizer().load_state_dict(checkpoint["optimizer"])
        self._require_pool().load_state_dict(checkpoint["pool"])
        self._any_optimizer().load_state_dict(checkpoint["optimizer"])
        policy = self.build_policy()
        policy.load_state_dict(checkpoint["policy"])
        make_policy().load_state_dict(checkpoint["policy"])
        self.agent.actor.load_state_dict(checkpoint["actor"])
        self.agent.pool.load_state_dict(checkpoint["pool"])
        self.agent.policy.load_state_dict(checkpoint["policy"])
        for net in (self.agent.actor, self.agent.policy):
            net.load_state_dict(checkpoint["net"])
        for component in self.components:
            component.load_state_dict(checkpoint["component"])
        for name, module in checkpoint["modules"].items():
            module.load_state_dict(checkpoint[name])
        head = None
        if "head" in checkpoint:
            head = Actor()
            head.load_state_dict(checkpoint["head"])
        return head
