from typing import Any

from pydantic import BaseModel


class TrainConfig(BaseModel):
    lr: float = 3e-4
    scheduler: any = None


def describe(config: TrainConfig, extra: Any) -> str:
    return f"{config.lr} {extra}"
