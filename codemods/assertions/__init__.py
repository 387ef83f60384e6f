"""Codemods about runtime checks: asserts that vanish under `python -O`."""
