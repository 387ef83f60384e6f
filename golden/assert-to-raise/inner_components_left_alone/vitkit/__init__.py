from vitkit.layers import Norm
from vitkit.model import Model

__all__ = ["Model", "Norm"]
