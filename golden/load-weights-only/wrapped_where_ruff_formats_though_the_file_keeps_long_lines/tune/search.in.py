# tytorch (round 56): its Makefile runs `ruff format`, at ruff's 88 columns, though this
# module keeps a longer import line; the new keyword is wrapped as ruff would wrap it.
from pathlib import Path

import torch
from tune.strategies.image_transforms import ImageTensorAugmentationStrategyWithAVeryLongName


def best_model(model_class, best_result):
    model = model_class(best_result.config)
    model.load_state_dict(torch.load(Path(best_result.checkpoint.path) / "model.pth"))
    return model, ImageTensorAugmentationStrategyWithAVeryLongName
