"""A small training library."""

__version__ = "0.3.0"
