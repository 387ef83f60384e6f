from typing import Any, Optional

import torch


def emit_anomaly_diagnostics(hub: Any, step: int, extra: Optional[Any] = None) -> dict[str, Any]:
    payload: dict[str, Any] = {"step": step}
    if hub is not None and any(v is None for v in payload.values()):
        payload["extra"] = extra
    return payload


class Rollout:
    info: Any | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs
        self.device = torch.device("cpu")
