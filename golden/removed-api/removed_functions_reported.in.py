import torch
import torch as th
from torch import symeig


def solve_all(A, b):
    x = torch.solve(b, A).solution
    values, vectors = symeig(A, eigenvectors=True)
    rank = th.matrix_rank(A)
    solver = torch.lstsq  # a reference, not a call: still broken
    return x, values, vectors, rank, solver(b, A)
