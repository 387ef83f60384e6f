"""Blocks sorted the way isort (ruff's I001) sorts them stay sorted."""

import os

import numpy as np
import torch
import torchvision.models as models
from torch import nn
from tqdm import tqdm


def load(root):
    import torch.distributed as dist
    import torchvision.datasets as datasets
    from PIL import Image
    from torchvision import transforms

    return datasets.ImageFolder(root, transform=transforms.ToTensor()), Image, dist


def build():
    return models.resnet18(), nn.Identity(), np, torch, os, tqdm
