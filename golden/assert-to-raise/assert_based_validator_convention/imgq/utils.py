"""Input checks shared by every metric: asserts, so that python -O skips them."""
import torch


def _validate_input(tensors: list, dim_range: tuple = (0, -1), data_range: tuple = (0.0, -1.0)):
    if not __debug__:
        return
    x = tensors[0]
    for t in tensors:
        assert torch.is_tensor(t), f"Expected torch.Tensor, got {type(t)}"
        assert t.device == x.device, f"Expected tensors on {x.device}, got {t.device}"
        assert t.size() == x.size(), f"Expected same size, got {t.size()} and {x.size()}"
        if dim_range[0] == dim_range[1]:
            assert t.dim() == dim_range[0], f"Expected {dim_range[0]}D tensor, got {t.dim()}D"
        if data_range[0] < data_range[1]:
            assert data_range[0] <= t.min(), f"Expected values >= {data_range[0]}"
            assert t.max() <= data_range[1], f"Expected values <= {data_range[1]}"
