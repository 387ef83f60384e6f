# golden-args: --unsafe-fixes
import torch


class Interpretable(torch.nn.Module):
    def attention_weights(self, weights):
        # A chain over several lines inside parentheses keeps its layout.
        attention = (
            self.mean_on_batch(weights)
            .mean(dim=0).detach()
            .cpu()
            .numpy()
        )
        return attention

    def mean_on_batch(self, tensor):
        return tensor.mean(dim=0)
