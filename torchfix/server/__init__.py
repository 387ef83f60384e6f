"""The language server: torchfix in editors, over the Language Server Protocol."""
