# golden-args: --unsafe-fixes
"""The project's formatter writes single quotes: so do the helper's strings (its
docstring keeps its double quotes, as formatters keep docstrings)."""

import os.path as osp

import torch


def save_partition(graph, path):
    torch.save(graph, osp.join(path, 'graph.pt'))
