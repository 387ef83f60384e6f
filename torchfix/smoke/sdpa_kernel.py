"""sdpa-kernel, executed: inside the rewritten `sdpa_kernel([...])` the same attention
backends are enabled as inside the old `sdp_kernel(...)`, attention computes the same, and
the flags are restored afterwards. Runs on CPU: the flags are global, not per device."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from torchfix.smoke import Scenario, expect, load_module, require_torch, rewrite

CODEMOD = "sdpa-kernel"

ATTENTION = '''
import torch
import torch.nn.functional as F


def flags():
    cuda = torch.backends.cuda
    return (cuda.flash_sdp_enabled(), cuda.mem_efficient_sdp_enabled(),
            cuda.math_sdp_enabled(), cuda.cudnn_sdp_enabled())


def math_only(q, k, v):
    with torch.backends.cuda.sdp_kernel(enable_flash=False, enable_math=True,
                                        enable_mem_efficient=False, enable_cudnn=False):
        return F.scaled_dot_product_attention(q, k, v), flags()


def flash_and_default_cudnn():
    with torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False,
                                        enable_mem_efficient=False):
        return flags()
'''


def _run(torch: Any, module: Any) -> tuple[Any, ...]:
    generator = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(2, 4, 8, 16, generator=generator) for _ in range(3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # the old context manager's warning
        before = module.flags()
        out, inside = module.math_only(q, k, v)
        other = module.flash_and_default_cudnn()
        after = module.flags()
    return out, inside, other, before, after


def same_backends_and_results(folder: Path) -> None:
    torch = require_torch()
    fixed_source = rewrite(ATTENTION, CODEMOD)
    expect("sdpa_kernel([SDPBackend.MATH])" in fixed_source, "the math-only call was not rewritten")
    expect("sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.CUDNN_ATTENTION])"
           in fixed_source, "the flash call was not rewritten with the default cuDNN flag")
    old = _run(torch, load_module(ATTENTION, folder, "attention_before"))
    new = _run(torch, load_module(fixed_source, folder, "attention_after"))
    expect(torch.equal(old[0], new[0]), "attention computed something else")
    expect(old[1] == new[1] == (False, False, True, False),
           f"other backends enabled inside the math-only context: {old[1]} vs {new[1]}")
    expect(old[2] == new[2] == (True, False, False, True),
           f"other backends enabled inside the flash context: {old[2]} vs {new[2]}")
    expect(old[3] == old[4] and new[3] == new[4], "the flags were not restored on exit")


SCENARIOS = [Scenario(CODEMOD, "same_backends_and_results", same_backends_and_results)]
