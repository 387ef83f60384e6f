# golden-path: test/test_custom_ops.py
import torch


def test_define():
    with torch.library._scoped_library("mylib", "DEF") as lib:
        lib.define("scale(Tensor x) -> Tensor")
