# golden-args: --unsafe-fixes
import torch
from torchvision.transforms.v2 import CenterCrop, Compose, Normalize, Resize, ToTensor


def imagenet_transforms(size):
    train = Compose(
        [
            Resize((size * 2, size * 2)),
            CenterCrop(size),
            ToTensor(),
        ],
    )
    evaluate = Compose(transforms=(ToTensor(), Normalize([0.5], [0.5])))
    single = ToTensor()
    return train, evaluate, single
