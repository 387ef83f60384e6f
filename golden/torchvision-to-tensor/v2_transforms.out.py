# golden-args: --unsafe-fixes
import torch
from torchvision.transforms import v2


def transforms():
    train = v2.Compose([v2.RandomResizedCrop(224), v2.ToImage(), v2.ToDtype(torch.float32, scale=True)])
    evaluate = v2.Compose([v2.ToImage(), v2.ToDtype(torch.float32, scale=True)])
    return train, evaluate
