import torch


class Corpus:
    def build(self, path):
        self.counts = {}
        torch.save(self.counts, path)
