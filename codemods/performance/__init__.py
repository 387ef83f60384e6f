"""Codemods about avoidable work in the hot path: allocations, host syncs (some off by
default, as in TorchFix)."""
