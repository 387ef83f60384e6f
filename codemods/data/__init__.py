"""Codemods about datasets, data loaders and collation."""
