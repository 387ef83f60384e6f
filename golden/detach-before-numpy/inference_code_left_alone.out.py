# golden-args: --unsafe-fixes
import typing

import numpy as np
import torch


class BaseInference:
    pass


class EmbeddingInference(BaseInference):
    def __init__(self, model):
        self.model_ = model

    def __call__(self, waveforms):
        _, embeddings = self.model_(waveforms)
        return embeddings.cpu().numpy()


class Speaker(BaseInference):
    def __call__(self, waveforms):
        return self.model_.encode_batch(waveforms).cpu().numpy()


class Regressor:
    def predict_batched(self, xs):
        borders = self.bardist_.borders.clone()
        return borders.cpu().numpy()

    def get_embeddings(self, x):
        embeddings = []
        for output in self.executor_.iter_outputs(x):
            embed = typing.cast("dict[str, torch.Tensor]", output)["train"].squeeze(1)
            embeddings.append(embed.cpu().numpy())
        return np.array(embeddings)

    def fit_embeddings(self, x):
        output = self.executor_.forward(x)
        embed = typing.cast("dict[str, torch.Tensor]", output)["train"].squeeze(1)
        return embed.detach().cpu().numpy()


class FullGrad:
    def __init__(self, layers):
        self.bias_data = [self.get_bias_data(layer).cpu().numpy() for layer in layers]
        self.weights = [self.get_weight(layer).cpu().numpy() for layer in layers]

    def get_bias_data(self, layer):
        if isinstance(layer, torch.nn.BatchNorm2d):
            bias = -(layer.running_mean * layer.weight) + layer.bias
            return bias.data
        return layer.bias.data

    def get_weight(self, layer):
        return layer.weight * 2


def confidence(model, inputs, targets):
    with torch.no_grad():
        outputs = model(inputs)
    scores = [target(output).cpu().numpy() for target, output in zip(targets, outputs)]
    trained = model(inputs)
    grads = [target(output).cpu().numpy() for target, output in zip(targets, trained)]
    return scores, grads


class Comparisons:
    def select(self, pairs):
        estimates = []
        for first, second in pairs:
            with torch.no_grad():
                rews1 = self.preference_model.rewards(first)
                rews2 = self.preference_model.rewards(second)
            estimates.append(self.variance_estimate(rews1, rews2))
        return estimates

    def variance_estimate(self, rews1, rews2):
        probs = self.preference_model.probability(rews1, rews2)
        return probs.cpu().numpy().var()

    def train_step(self, first, second):
        rews1 = self.preference_model.rewards(first)
        rews2 = self.preference_model.rewards(second)
        return self.loss_values(rews1, rews2)

    def loss_values(self, rews1, rews2):
        probs = self.preference_model.probability(rews1, rews2)
        return probs.cpu().numpy()
