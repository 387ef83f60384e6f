# golden-path: tools/model_converters/convnext_to_mmpretrain.py
# Nothing else in the project names the module: a script run by hand, whose output
# running it again makes. Left alone (facenet-pytorch-custom's tensorflow2pytorch.py,
# round 51: all 9 unsafe fixes were not worth applying). A module the package imports
# stays an unsafe fix: conversion_module_the_package_imports_is_unsafe.
import torch


def convert(src, dst):
    checkpoint = torch.load(src, map_location="cpu")
    weights = {key.replace("backbone.", ""): value for key, value in checkpoint.items()}
    torch.save(weights, dst)
