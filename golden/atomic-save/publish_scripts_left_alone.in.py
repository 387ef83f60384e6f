# golden-path: scripts/publish_model.py
# Nothing else in the project names the module: a script run by hand, whose output
# running it again makes. Left alone (facenet-pytorch-custom's tensorflow2pytorch.py,
# round 51: all 9 unsafe fixes were not worth applying). A module the package imports
# stays an unsafe fix: conversion_module_the_package_imports_is_unsafe.
import torch


def process_checkpoint(in_file, out_file):
    checkpoint = torch.load(in_file, map_location="cpu")
    if "optimizer" in checkpoint:
        del checkpoint["optimizer"]
    torch.save(checkpoint, out_file)


def run_process_checkpoint(in_file, out_file):
    process_checkpoint(in_file, out_file)
