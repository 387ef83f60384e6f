"""What a run reports for each change or finding: where, what, how safe, whether applied.

Kept apart from the codemod contract so that reading results (the cache, the output
formats) imports neither the contract's edit primitives nor the models.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Safety(str, enum.Enum):
    """How much a change can be trusted without a human reading it."""

    SAFE = "safe"  # applied by default
    UNSAFE = "unsafe"  # applied only with --unsafe-fixes; otherwise reported
    MANUAL = "manual"  # reported only: no automatic fix exists


@dataclass(frozen=True)
class Change:
    """One edit (applied or not) or finding made by one codemod at one place."""

    codemod: str
    line: int  # 1-based, in the file as it was read
    column: int  # 1-based, in characters
    message: str
    safety: Safety
    applied: bool
    # Where the changed code ends: 1-based line and the 1-based column just past its last
    # character (SARIF's convention). None where unknown (results from older caches).
    end_line: int | None = None
    end_column: int | None = None
    # The TorchFix code of the finding ("TOR102"), where its codemod carries one.
    code: str | None = None


def applies(safety: Safety, unsafe_fixes: bool) -> bool:
    """Whether a change of this safety is applied in a run with or without --unsafe-fixes."""
    return safety is Safety.SAFE or (safety is Safety.UNSAFE and unsafe_fixes)
