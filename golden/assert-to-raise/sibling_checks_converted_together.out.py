def custom_root(optimality_fn, argnums, has_aux=False):
    if isinstance(argnums, int):
        if argnums == 0:
            raise ValueError("argnums must not select the optimality function's result")
        argnums = (argnums,)
    else:
        if 0 in argnums:
            raise ValueError("argnums must not select the optimality function's result")
    return optimality_fn, argnums


def reshape(shape, factor):
    if factor > 1:
        shape = tuple(s * factor for s in shape)
        assert len(shape) == 2
    else:
        assert len(shape) == 2, "a 2-d shape"
    return shape


class ViT:
    def __init__(self, image_size, patch_size, hidden_dim, heads):
        image_height, image_width = image_size
        patch_height, patch_width = patch_size
        assert image_height % patch_height == 0 and image_width % patch_width == 0, "bad patch"
        assert hidden_dim % heads == 0, "Hidden dimension must be divisible by the heads."
        grid_height, grid_width = image_height // patch_height, image_width // patch_width
        assert grid_height * grid_width > 1, "more than one patch"
        self.hidden_dim = hidden_dim
