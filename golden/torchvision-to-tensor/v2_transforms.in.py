# golden-args: --unsafe-fixes
import torch
from torchvision.transforms import v2
from torchvision.transforms.v2 import ToTensor


def transforms():
    train = v2.Compose([v2.RandomResizedCrop(224), v2.ToTensor()])
    evaluate = ToTensor()
    return train, evaluate
