from dataclasses import dataclass


@dataclass
class DataConfig:
    target: str


@dataclass
class ModelConfig:
    task: str = "regression"


@dataclass
class InferredConfig:
    target: str
    task: str

    def __post_init__(self):
        assert self.task in ("regression", "classification"), f"unknown task {self.task}"


def export_config(config, indent):
    assert indent >= 0, "indent must not be negative"
    return repr(config)
