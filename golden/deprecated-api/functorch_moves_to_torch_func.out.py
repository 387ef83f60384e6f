import torch
from torch.func import grad, vmap as batched


def per_sample_grads(loss, params, batch):
    per_sample = batched(grad(loss), in_dims=(None, 0))
    return per_sample(params, batch)


def curvature(loss, params):
    return torch.func.hessian(loss)(params)
