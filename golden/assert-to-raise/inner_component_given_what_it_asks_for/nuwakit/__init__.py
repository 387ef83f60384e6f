from nuwakit.model import NUWA

__all__ = ["NUWA"]
