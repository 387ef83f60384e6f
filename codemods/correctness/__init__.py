"""Codemods for code that silently does something else than it says."""
