"""Removed and deprecated torch names: the migration catalogue (`catalogue.toml`), the
engine that applies its rows (`engine.py`), and the codemods that carry TorchFix's codes."""
