"""torchfix: safe, idempotent codemods for PyTorch code.

The Python API (`check_source`, `fix_source`, `check_paths`, ...) lives in
`torchfix.api` and is re-exported here on first use, so that `import torchfix` stays
cheap: the engine (libcst) is imported only when one of them is asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# The one home of the project on the web: pyproject.toml's URLs, the documentation links
# in every output format and the GitHub Action all name it (a test holds them to it).
PROJECT_URL = "https://github.com/torchfix/torchfix"


if TYPE_CHECKING:
    from torchfix.api import (
        CheckResult,
        FileProblem,
        Finding,
        FixResult,
        SourceError,
        check_paths,
        check_source,
        fix_source,
    )

__all__ = [
    "PROJECT_URL",
    "CheckResult",
    "FileProblem",
    "Finding",
    "FixResult",
    "SourceError",
    "__version__",
    "check_paths",
    "check_source",
    "fix_source",
]
_API = frozenset(__all__) - {"PROJECT_URL", "__version__"}


def __getattr__(name: str) -> Any:
    if name in _API:
        from torchfix import api

        return getattr(api, name)
    raise AttributeError(f"module 'torchfix' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_API})
