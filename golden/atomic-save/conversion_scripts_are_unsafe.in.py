# golden-path: tools/model_converters/convnext_to_mmpretrain.py
import torch


def convert(src, dst):
    checkpoint = torch.load(src, map_location="cpu")
    weights = {key.replace("backbone.", ""): value for key, value in checkpoint.items()}
    torch.save(weights, dst)
