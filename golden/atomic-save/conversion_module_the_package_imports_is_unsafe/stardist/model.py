import os

from .converter import convert_keras_weights


class StarDist2D:
    @classmethod
    def from_folder(cls, folder, weights):
        path = os.path.join(folder, "weights.pt")
        if not os.path.exists(path):
            convert_keras_weights(weights, path)
        return cls()
