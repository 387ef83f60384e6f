# golden-args: --unsafe-fixes
"""Asserts a compiler, torch or the next statement already owns: left alone."""
import functools
import os

import cutlass.cute as cute
import torch
import triton
import triton.language as tl
from jax.experimental import pallas as pl
from torch import nn


@triton.jit
def scale_kernel(x_ptr, n, BLOCK: tl.constexpr):
    assert BLOCK > 0  # compiled to a device assert; a raise does not compile
    offsets = tl.arange(0, BLOCK)
    tl.store(x_ptr + offsets, tl.load(x_ptr + offsets) * 2, mask=offsets < n)


@cute.jit
def rmsnorm_fwd(m_tile: int, num_threads: int):
    assert m_tile * num_threads >= 32, "tile too small"


@torch.jit.script
def project_onto_birkhoff(x: torch.Tensor, max_iter: int = 100) -> torch.Tensor:
    assert max_iter > 0, "max_iter must be positive"  # compiled: -O never strips it
    return x


if os.environ.get("JIT_ON") != "0":
    MyStatic = torch.jit.script
else:
    def MyStatic(function):
        return function


@MyStatic
def cuda_mm8_one(N: int, M: int, x, w):
    assert x.shape == (N,)  # scripted where JIT is on (rwkv, round 21): -O never strips it
    assert w.shape == (N, M)
    return x


class MapTensor(torch.Tensor):
    def __tensor_flatten__(self):
        return ["elem"], None

    @staticmethod
    def __tensor_unflatten__(inner_tensors, meta, outer_size, outer_stride):
        assert len(inner_tensors) == 1, f"{inner_tensors}"
        return MapTensor(inner_tensors["elem"])


class MixingLayer(nn.Module):
    def __init__(self, decomp_method: str, window: int):
        super().__init__()
        assert decomp_method in ["moving_avg", "dft_decomp"], "unknown decomp_method"
        if decomp_method == "moving_avg":
            self.decomposition = nn.AvgPool1d(window)
        elif decomp_method == "dft_decomp":
            self.decomposition = nn.Identity()
        else:
            raise ValueError("decomposition is error")


def broadcast(tensor: torch.Tensor, src: int):
    assert src >= 0, ""
    return tensor


def dice_mode(mode: str) -> str:
    # torchok's DiceLoss (round 41): the `if` after it raises on exactly its failure
    assert mode in {"binary", "multiclass", "multilabel"}
    if mode not in {"binary", "multiclass", "multilabel"}:
        raise ValueError(f"DiceLoss: mode {mode} is not supported")
    return mode


class ModelBuilder:
    def append_tensor(self, name, tensor):
        # executorch's NXP builder (round 53): the `if` is the fallback for `python -O`
        assert not self.tensor_exists(name), f"tensor {name} already exists"
        if self.tensor_exists(name):
            return
        self.tensors[name] = tensor


def matmul_kernel(x_ref, w_ref, out_ref, *, block_rows: int, block_cols: int):
    # a Pallas kernel (torch-xla, round 46): traced by JAX, its blocks shaped by the wrapper
    assert x_ref.shape == (block_rows, block_cols), "x_ref shape is not correct"
    out_ref[...] = x_ref[...] @ w_ref[...]


def quantized_matmul(x, w, block_rows: int, block_cols: int):
    kernel = pl.pallas_call(
        functools.partial(matmul_kernel, block_rows=block_rows, block_cols=block_cols),
        out_shape=x,
    )
    return kernel(x, w)
