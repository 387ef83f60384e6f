"""Codemods for avoidable slowness in training loops (off by default, as in TorchFix)."""
