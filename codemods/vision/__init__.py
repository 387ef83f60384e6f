"""Codemods for torchvision."""
