# golden-args: --unsafe-fixes
import torch
from torchmetrics.classification import BinaryCalibrationError
from torchmetrics.metric import Metric
from torchmetrics.utilities.data import dim_zero_cat


def custom_plot(self, title):
    # Called only with a metric as `self`: its states never require grad.
    confidences = dim_zero_cat(self.confidences)
    accuracies = dim_zero_cat(self.accuracies)
    return chart(accuracies.cpu().numpy(), confidences.cpu().numpy(), title)


class PlottedCalibration(BinaryCalibrationError):
    def plot(self, title="Reliability"):
        return custom_plot(self, title)


class Histogram(Metric):
    def __init__(self):
        super().__init__()
        self.add_state("values", [], dist_reduce_fx="cat")

    def update(self, values):
        self.values.append(values)

    def compute(self):
        values = dim_zero_cat(self.values)
        return chart(values.cpu().numpy(), values.mean().cpu().numpy(), "values")


class Recorder:
    def __init__(self, net):
        self.net = net
        self.outputs = []

    def record(self, x):
        # Not a metric: what a model returned here may require grad.
        out = self.net(x)
        return out.cpu().numpy()


def chart(a, b, title):
    return a, b, title


def plot_outputs(self, x):
    # `self` is handed in by no metric: a model's output, fixed.
    scores = self.model(x)
    return scores.cpu().numpy()
