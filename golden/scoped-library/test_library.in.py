# golden-path: test/test_custom_ops.py
import torch


def test_define():
    lib = torch.library.Library("mylib", "DEF")
    lib.define("scale(Tensor x) -> Tensor")
    with torch.library._scoped_library("mylib2", "DEF") as scoped:
        scoped.define("shift(Tensor x) -> Tensor")
