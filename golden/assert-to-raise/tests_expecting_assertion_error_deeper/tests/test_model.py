import pytest

from tabkit import TabularModel
from tabkit.config import DataConfig, ModelConfig


def _run_bagging(aggregate):
    model = TabularModel(DataConfig("y"), ModelConfig())
    return model.bagging_predict([1.0, 2.0], aggregate=aggregate)


def test_unknown_aggregate():
    # TabularModel.bagging_predict -> TabularModel.predict, which asserts
    with pytest.raises(AssertionError):
        _run_bagging("vote")


def test_unknown_task():
    # TabularModel.__init__ -> self._read_config -> InferredConfig.__post_init__
    with pytest.raises(AssertionError, match="unknown task"):
        TabularModel(DataConfig("y"), ModelConfig("ranking"))


def test_validation_split_out_of_range():
    model = TabularModel(DataConfig("y"), ModelConfig())
    # fit -> self.datamodule.prepare (DataModule, as fit builds it)
    with pytest.raises(AssertionError):
        model.fit([1.0, 2.0, 3.0], validation_split=1.5)


def test_summary_width():
    model = TabularModel(DataConfig("y"), ModelConfig())
    # A ValueError passes this test as well: the assert is rewritten.
    with pytest.raises((AssertionError, ValueError)):
        model.summary(0)
