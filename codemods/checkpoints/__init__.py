"""Codemods about saving and loading checkpoints."""
