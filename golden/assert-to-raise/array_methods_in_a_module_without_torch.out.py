# golden-args: --unsafe-fixes
"""A confusion matrix over NumPy arrays (pytorch-trainer's, round 38): `.all()` and
`.max()` here are NumPy's, which sync no device and compile to nothing."""
import numpy as np


class ConfusionMatrix:
    def __init__(self, num_classes: int):
        self.num_classes = num_classes
        self.conf = np.zeros((num_classes, num_classes), dtype=np.int64)

    def add(self, predicted, target):
        if not ((target >= 0).all() and (target <= 1).all()):
            raise ValueError("in one-hot encoding, target values should be 0 or 1")
        if not (predicted.max() < self.num_classes):
            raise ValueError("predicted values are not below k")
        self.conf += np.bincount(predicted, minlength=self.num_classes ** 2).reshape(
            self.num_classes, self.num_classes)
