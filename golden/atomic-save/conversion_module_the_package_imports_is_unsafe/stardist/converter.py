# cistardist-pytorch (round 46): a conversion module the package itself calls, when no
# converted file exists yet: a torn file would be reused, so the rewrite is offered (its
# reviewer: worth applying). A conversion script nothing imports is left alone:
# conversion_scripts_left_alone.
import torch


def convert_keras_weights(weights, out_path):
    state = {name: torch.as_tensor(value) for name, value in weights.items()}
    torch.save(state, out_path)
