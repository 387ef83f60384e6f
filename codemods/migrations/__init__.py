"""Codemods that move code off deprecated or removed PyTorch APIs to those of torch 2.x."""
