import torchvision.datasets as datasets
import torchvision.models as models
import torchvision.transforms as transforms
import torchvision.transforms as T, torchvision.models as models2  # other names: untouched
import torchvision.models as models, os  # more than one module: reported


def build(root):
    return datasets.CIFAR10(root), models.resnet18(), transforms.ToTensor(), T, models2, os
