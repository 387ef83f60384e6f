"""Rules for PyTorch's own test suite, kept for TorchFix parity (off by default)."""
