"""torch.save(obj, f): bert4torch's `save_whiten` hands it the path first (round 39), a
call that fails on every run; an atomic save would keep the bug, so it is reported."""
import torch


class Whitening:
    def save_whiten(self, path):
        whiten = {"kernel": self.kernel, "bias": self.bias}
        torch.save(path, whiten)

    def describe(self, path, f):
        torch.save(path, f)  # a path string saved into an open file: not swapped
