from __future__ import annotations

import typing as t
from typing import Any


def merge(a: Any, b: any) -> t.Dict[str, any]:
    return {"a": a, "b": b}
