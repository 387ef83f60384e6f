"""Codemods about avoidable work in the hot path: allocations, host syncs."""
