# golden-args: --unsafe-fixes
import torch

from .torch_utils import maybe_no_grad, smart_inference_mode


@smart_inference_mode()
def run_validation(model, images):
    return model(images).cpu().numpy()


def embed(model, images):
    with maybe_no_grad(model.training):
        return model(images).cpu().numpy()


def scores(model, images):
    return model(images).detach().cpu().numpy()
