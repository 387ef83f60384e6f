# golden-args: --unsafe-fixes
# No formatter configured, and the file's own code runs past 88 columns: the project
# does not wrap, so a raise as long as the assert it replaces stays on one line.
import torch


def integrate(term, y0: torch.Tensor, dt: torch.Tensor, steps: int, order: int = 1, adaptive: bool = False, rtol: float = 1e-3):
    if term is None:
        raise ValueError("The integration term must be given for the integration to run")
    return [term(y0) * dt for _ in range(steps)]
