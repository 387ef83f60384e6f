"""evalkit."""
