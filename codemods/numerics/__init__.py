"""Codemods for numerically stable forms of common expressions."""
