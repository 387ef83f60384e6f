from .model import StarDist2D
