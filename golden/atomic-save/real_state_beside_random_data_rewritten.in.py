# golden-args: --unsafe-fixes
import torch


class Collector:
    def process(self, model, path):
        for step in range(20):
            torch.save({"model": model.state_dict(), "noise": torch.randn(4)}, path)
            torch.save(self._timestep(model), path)

    def _timestep(self, model):
        return [{"obs": torch.rand(4), "value": model.value}]
