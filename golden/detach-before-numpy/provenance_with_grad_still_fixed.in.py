# golden-args: --unsafe-fixes
# A provenance that shows grad is possible (a model's output, a loss) is reported, not
# fixed, even under --unsafe-fixes: rounds 24 and 25 judged 6 of 7 such fixes pointless.
import random

import torch


def log_values(agent, data):
    # A model's output on collected data may require grad: reported.
    out = agent.forward(data["obs"])
    values = out["value"] * 2
    return values.cpu().numpy()


def model_eval_returns_module(model, x):
    # `model.eval()` without arguments returns the module: its output is a forward pass.
    y = model.eval()(x)
    return y.cpu().numpy()


def shuffled(model, xs):
    picked = random.choice(xs)
    y = model(picked)
    return copy_of(y).cpu().numpy()


def copy_of(y):
    return y * 1


def scores(model, x):
    batch = model(x)  # a batch of outputs, named as data, from a forward pass
    return batch["score"].cpu().numpy()


def read_or_run(model, x):
    result = forward_or_detach(model, x)
    return result.cpu().numpy()


def forward_or_detach(model, x):
    if x is None:
        return torch.zeros(1)
    return model(x)


def arms_in_a_loop(model, xs, first):
    for x in xs:
        if first:
            y = model(x)
        else:
            print(y.cpu().numpy())  # `y` from the other arm, an earlier iteration
