import torchvision
import torchvision.transforms.functional as F
from torchvision import models, transforms


def build():
    return models.resnet18(), transforms.ToTensor(), F.to_tensor, torchvision.__version__
