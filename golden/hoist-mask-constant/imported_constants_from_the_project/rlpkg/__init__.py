"""A small RL package: its numbers live in one module and are re-exported here."""
from rlpkg.constants import MASKED_LOGIT_VALUE

__all__ = ["MASKED_LOGIT_VALUE"]
