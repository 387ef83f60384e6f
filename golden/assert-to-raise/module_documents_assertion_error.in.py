# golden-args: --unsafe-fixes
"""Validation of a manifest's items."""
from dataclasses import dataclass

_VALIDATORS = {}


@dataclass
class Recording:
    id: str
    duration: float
    num_channels: int


def register_validator(fn):
    _VALIDATORS[next(iter(fn.__annotations__.values()))] = fn
    return fn


def validate(obj, read_data: bool = False) -> None:
    """Check that an item of a manifest is consistent.

    It raises AssertionError when it finds some mismatch.
    """
    _VALIDATORS[type(obj)](obj, read_data=read_data)


@register_validator
def validate_recording(r: Recording, read_data: bool = False) -> None:
    assert r.duration > 0, f"Recording {r.id}: duration has to be greater than 0"
    assert r.num_channels > 0, f"Recording {r.id}: no channels available"
