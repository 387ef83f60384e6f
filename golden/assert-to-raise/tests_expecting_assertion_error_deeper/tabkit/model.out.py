from tabkit.config import InferredConfig
from tabkit.data import DataModule


class TabularModel:
    def __init__(self, data_config, model_config):
        self.config = self._read_config(data_config, model_config)
        self.datamodule = None

    def _read_config(self, data_config, model_config):
        return InferredConfig(data_config.target, model_config.task)

    def fit(self, train, validation_split=0.2):
        self.datamodule = DataModule(train, self.config)
        self.datamodule.prepare(validation_split)
        return self

    def predict(self, test, aggregate="mean"):
        assert aggregate in ("mean", "median", "hard_voting"), f"unknown aggregate {aggregate}"
        return [len(test)]

    def bagging_predict(self, test, aggregate="mean"):
        return self.predict(test, aggregate=aggregate)

    def summary(self, width):
        if not (width > 0):
            raise ValueError("width must be positive")
        return "TabularModel".center(width)

    def explain(self, test, method):
        if method not in ("saliency", "permutation"):
            raise ValueError(f"unknown method {method}")
        return [0.0] * len(test)
