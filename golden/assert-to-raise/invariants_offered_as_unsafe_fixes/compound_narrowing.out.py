# Message-less `and`s of narrowing checks are there for the type checker, like one check.
from typing import Optional


class RaySamples:
    spacing_starts: Optional[list] = None


def merge(a: RaySamples, b: RaySamples) -> list:
    if not (a.spacing_starts is not None and b.spacing_starts is not None):
        raise ValueError(
            "expected a.spacing_starts is not None and b.spacing_starts is not None"
        )
    return a.spacing_starts + b.spacing_starts


def losses(outputs: dict, metrics_dict: Optional[dict] = None) -> dict:
    if not (metrics_dict is not None and "distortion" in metrics_dict):
        raise ValueError(
            'expected metrics_dict is not None and "distortion" in metrics_dict'
        )
    return {"distortion": metrics_dict["distortion"]}


def scale(factor: float, offset: float) -> float:
    if not (factor > 0 and offset >= 0):
        raise ValueError("expected factor > 0 and offset >= 0")
    return factor + offset
