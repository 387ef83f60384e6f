"""A small training library, in the `acme` namespace package (no acme/__init__.py)."""

from acme.trainlib.config import RunConfig

__all__ = ["RunConfig"]
