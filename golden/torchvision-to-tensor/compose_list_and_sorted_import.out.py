# golden-args: --unsafe-fixes
import torch
from torchvision.transforms.v2 import CenterCrop, Compose, Normalize, Resize, ToDtype, ToImage


def imagenet_transforms(size):
    train = Compose(
        [
            Resize((size * 2, size * 2)),
            CenterCrop(size),
            ToImage(),
            ToDtype(torch.float32, scale=True),
        ],
    )
    evaluate = Compose(transforms=(ToImage(), ToDtype(torch.float32, scale=True), Normalize([0.5], [0.5])))
    single = Compose([ToImage(), ToDtype(torch.float32, scale=True)])
    return train, evaluate, single
