import torch


def solve_all(A, b, layer):
    x = torch.linalg.solve(A, b)
    values, vectors = torch.linalg.eigh(A)
    rank = torch.linalg.matrix_rank(A)
    # Methods of other objects that share a name are not torch's removed functions.
    return x, values, vectors, rank, layer.solve(b), layer.lstsq(b)
