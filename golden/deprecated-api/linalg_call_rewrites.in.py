import torch


def factorize(A, B, cfg):
    L = torch.cholesky(A)
    U = torch.cholesky(A, upper=True)
    maybe_upper = torch.cholesky(A, upper=cfg.upper)  # TorchFix 0.7 gave up on this file here
    Q, R = torch.qr(A)
    Q_full, R_full = torch.qr(A, some=False)
    Q_cfg, R_cfg = torch.qr(A, some=cfg.reduced)
    product = torch.chain_matmul(A, B, A)
    return L, U, maybe_upper, Q, R, Q_full, R_full, Q_cfg, R_cfg, product


def left_for_a_person(A, B, matrices, cfg):
    # Positional flags and unpacked matrices do not fit the new signatures as written.
    U = torch.cholesky(A, True)
    product = torch.chain_matmul(*matrices)
    single = torch.chain_matmul(A)
    decompose = torch.cholesky  # a value: torch.linalg.cholesky takes `upper` by keyword
    return U, product, single, decompose
