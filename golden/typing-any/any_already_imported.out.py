from __future__ import annotations

import typing as t
from typing import Any


def merge(a: Any, b: Any) -> t.Dict[str, Any]:
    return {"a": a, "b": b}
