"""A module named like the standard library's `copy` (accelerate has `utils/dataclasses.py`):
`import copy` beside it still names the standard library, no bare import of a neighbour."""
