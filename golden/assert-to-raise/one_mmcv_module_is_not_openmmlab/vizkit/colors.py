"""Colour tables."""
PALETTE = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
