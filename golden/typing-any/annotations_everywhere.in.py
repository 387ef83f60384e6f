from typing import Optional

import torch


def emit_anomaly_diagnostics(hub: any, step: int, extra: Optional[any] = None) -> dict[str, any]:
    payload: dict[str, any] = {"step": step}
    if hub is not None and any(v is None for v in payload.values()):
        payload["extra"] = extra
    return payload


class Rollout:
    info: any | None = None

    def __init__(self, *args: any, **kwargs: any) -> None:
        self.args = args
        self.kwargs = kwargs
        self.device = torch.device("cpu")
