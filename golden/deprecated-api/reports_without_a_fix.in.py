import torch
from torch.nn.utils import weight_norm


def legacy(x, layer, A):
    torch.set_default_tensor_type(torch.cuda.FloatTensor)
    size = torch.norm(x, p=2)
    U, S, V = torch.svd(A)
    layer = weight_norm(layer)
    torch.testing.assert_allclose(x, x)
    pointer = x.storage().data_ptr()
    return size, U, S, V, layer, pointer
