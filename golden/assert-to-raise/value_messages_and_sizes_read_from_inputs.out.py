# golden-args: --unsafe-fixes
# Sizes read from the inputs (`batch_dims = means.shape[:-2]`, `C = viewmats.size(-3)`,
# `num_batch_dims = len(batch_dims)`) are the caller's values: the shape checks that
# compare with them are input checks, converted together (gsplat, round 18). A message
# that is only the checked value says what was expected too: on one line where that fits,
# else in two parts a line each (round 46), unless the condition alone overflows a line.
import torch
from torch import Tensor

RENDER_MODES = ("RGB", "D", "RGB+D")


def rasterize(
    means: Tensor,
    viewmats: Tensor,
    colors: Tensor,
    masks: Tensor,
    offsets: Tensor,
    render_mode: str = "RGB",
) -> Tensor:
    batch_dims = means.shape[:-2]
    num_batch_dims = len(batch_dims)
    N = means.size(-2)
    C = viewmats.size(-3)
    if means.shape != batch_dims + (N, 3):
        raise ValueError(
            f"expected means.shape == batch_dims + (N, 3), got {means.shape}"
        )
    if viewmats.shape != batch_dims + (C, 4, 4):
        raise ValueError(
            f"expected viewmats.shape == batch_dims + (C, 4, 4), got {viewmats.shape}"
        )
    if colors.dim() not in (num_batch_dims + 2, num_batch_dims + 3):
        raise ValueError(
            "expected colors.dim() in (num_batch_dims + 2, num_batch_dims + 3), "
            f"got {colors.shape}"
        )
    if masks.shape != offsets.shape:
        raise ValueError(f"expected masks.shape == offsets.shape, got {masks.shape}")
    if render_mode not in RENDER_MODES:
        raise ValueError(f"expected render_mode in RENDER_MODES, got {render_mode}")
    if render_mode == "RGB+D":
        C = C + 1
    return torch.zeros(*batch_dims, C, N)


def count_flops(inputs: list, outputs: list, message: str = "two inputs") -> int:
    if len(inputs) != 2:
        raise ValueError(f"expected len(inputs) == 2, got {len(inputs)}")
    if len(outputs) != 1:
        raise ValueError(message)
    if not (
        inputs[0].shape[-1] == inputs[1].shape[-2]
        and inputs[0].shape[:-2] == inputs[1].shape[:-2]
    ):
        raise ValueError(inputs[0].shape)
    return inputs[0].numel() * inputs[1].shape[-1]


def shade(means: Tensor, colors: Tensor) -> Tensor:
    # A one-element tuple's comma is no magic trailing comma: the test is split as black
    # splits it, nested parentheses a level deeper each.
    batch_dims = means.shape[:-2]
    num_batch_dims = len(batch_dims)
    N = means.shape[-2]
    if not (
        (colors.dim() == num_batch_dims + 2 and colors.shape[:-1] == batch_dims + (N,))
        or (
            colors.dim() == num_batch_dims + 3
            and colors.shape[:-2] == batch_dims + (N,)
        )
    ):
        raise ValueError(colors.shape)
    return colors
