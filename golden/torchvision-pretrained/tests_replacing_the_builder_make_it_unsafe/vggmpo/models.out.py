"""torch-mpo (round 53): its test stands a double that takes `pretrained=` only in for
torchvision's vgg16, so `weights=` would fail that test with a TypeError; resnet18,
which no test replaces, is fixed safely."""

import torchvision.models as models


def vgg16_compressed(pretrained=False):
    if pretrained:
        return models.vgg16(pretrained=True)
    return models.vgg16()


def resnet_backbone():
    return models.resnet18(weights=models.ResNet18_Weights.IMAGENET1K_V1)
