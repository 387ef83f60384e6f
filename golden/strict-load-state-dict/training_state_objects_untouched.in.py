# golden-args: --unsafe-fixes
from dataclasses import dataclass, field


@dataclass
class _Tracker:
    ready: int = 0

    def load_state_dict(self, state_dict):
        self.ready = state_dict["ready"]


@dataclass
class _Progress:
    total: _Tracker = field(default_factory=_Tracker)

    @classmethod
    def from_state_dict(cls, state_dict):
        progress = cls()
        progress.load_state_dict(state_dict)
        return progress

    def load_state_dict(self, state_dict):
        self.total.load_state_dict(state_dict["total"])


def restore(fit_loop, train_loader, replay_buffer, callbacks, aggregators, state):
    fit_loop.load_state_dict(state["loop"])
    train_loader.sampler.load_state_dict(state["sampler"])
    replay_buffer.load_state_dict(state["buffer"])
    for callback in callbacks:
        callback.load_state_dict(state[type(callback).__name__])
    for name, agg_state in state["meters"].items():
        aggregators[name].load_state_dict(agg_state)
