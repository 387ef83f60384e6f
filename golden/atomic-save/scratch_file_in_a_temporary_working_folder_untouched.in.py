"""Package a traced model: its files are written into a scratch folder, then tarred."""

import os
import tarfile
import tempfile
from contextlib import contextmanager

import torch


@contextmanager
def cwd(path):
    previous = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(previous)


def save(module, example, archive):
    graph_module = torch.fx.symbolic_trace(module)
    with tempfile.TemporaryDirectory() as tmp_dir:
        input_shape_file = "input_shape.pt"
        with cwd(tmp_dir):
            graph_module.to_folder("fx_package")
            torch.save(example.size(), input_shape_file)
        with tarfile.open(archive, "w:gz") as tar:
            tar.add(os.path.join(tmp_dir, "fx_package"), arcname="fx_package")
            tar.add(os.path.join(tmp_dir, input_shape_file), arcname=input_shape_file)


def load(archive):
    with tempfile.TemporaryDirectory() as tmp_dir:
        with cwd(tmp_dir), tarfile.open(archive) as tar:
            tar.extractall()
            return torch.load("input_shape.pt", weights_only=True)
