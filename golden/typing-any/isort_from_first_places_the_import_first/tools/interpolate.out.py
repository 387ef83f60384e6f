# Standard
from typing import Any
import argparse

# Third Party
import torch


def interpolate(path: str, dtype: str | None = None) -> None:
    # instructlab-training (round 29) sorts imports with isort's from_first: the new
    # `from typing import Any` goes above `import argparse`
    model_kwargs: dict[str, Any] = {}
    if dtype is not None:
        model_kwargs["torch_dtype"] = getattr(torch, dtype)
    print(argparse.Namespace(path=path, **model_kwargs))
