# golden-args: --unsafe-fixes
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 8)

    @torch.no_grad
    def embed(self, x):
        return self.body(x).cpu().numpy()

    @torch.inference_mode
    def embed_fast(self, x):
        return self.body(x).cpu().numpy()

    @torch.set_grad_enabled(False)
    def embed_off(self, x):
        return self.body(x).cpu().numpy()

    def embed_block(self, x):
        with torch.inference_mode():
            out = self.body(x)
            arr = out.cpu().numpy()
        return arr, out

    def trained(self, x):
        return self.body(x).detach().cpu().numpy()


def infer_all(model, chunks):
    with torch.inference_mode():
        outputs = model(chunks)

    def convert(output, conversion):
        return conversion(output).cpu().numpy()

    return [convert(o, model.conversion) for o in outputs]


def loss_values(model, chunks):
    with torch.no_grad():
        target = model(chunks)
    outputs = model(chunks)
    return (outputs - target).cpu().numpy()
