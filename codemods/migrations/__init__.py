"""Codemods that move code off deprecated or removed PyTorch APIs."""
