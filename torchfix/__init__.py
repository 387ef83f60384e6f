"""torchfix: safe, idempotent codemods for PyTorch code."""

__version__ = "0.1.0"
