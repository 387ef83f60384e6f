# golden-path: chemprop/utils/v2_0_to_v2_1.py
# Nothing else in the project names the module: a script run by hand, whose output
# running it again makes. Left alone (facenet-pytorch-custom's tensorflow2pytorch.py,
# round 51: all 9 unsafe fixes were not worth applying). A module the package imports
# stays an unsafe fix: conversion_module_the_package_imports_is_unsafe.
import torch


def convert_model_file_v2_0_to_v2_1(model_v1_file, model_v2_file):
    model_v2_dict = torch.load(model_v1_file, weights_only=False)
    model_v2_dict["hyper_parameters"]["version"] = "2.1"
    torch.save(model_v2_dict, model_v2_file)
