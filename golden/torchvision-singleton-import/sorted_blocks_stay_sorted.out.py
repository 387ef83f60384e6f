"""Blocks sorted the way isort (ruff's I001) sorts them stay sorted."""

import os

import numpy as np
import torch
from torch import nn
from torchvision import models
from tqdm import tqdm


def load(root):
    import torch.distributed as dist
    from PIL import Image
    from torchvision import datasets, transforms

    return datasets.ImageFolder(root, transform=transforms.ToTensor()), Image, dist


def build():
    return models.resnet18(), nn.Identity(), np, torch, os, tqdm
