import timm
from transformers import AutoModel
from torchvision import models


def build(name):
    a = timm.create_model(name, pretrained=True)
    b = AutoModel.from_pretrained(name)
    c = models.resnet18(weights=models.ResNet18_Weights.DEFAULT)
    return a, b, c
