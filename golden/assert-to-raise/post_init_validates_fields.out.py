from dataclasses import dataclass


@dataclass
class SACConfig:
    tau: float = 0.005
    gamma: float = 0.99
    buffer_size: int = 1_000_000

    def __post_init__(self):
        if not (0.0 < self.tau <= 1.0):
            raise ValueError(f"tau must be in (0, 1], got {self.tau}")
        if not (self.buffer_size > 0):
            raise ValueError("expected self.buffer_size > 0")


class Schedule:
    def __init__(self, initial, final):
        self.initial = initial
        self.final = final
        if not (self.final <= self.initial):
            raise ValueError("expected self.final <= self.initial")
