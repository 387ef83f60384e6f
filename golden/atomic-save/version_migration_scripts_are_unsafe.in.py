# golden-path: chemprop/utils/v2_0_to_v2_1.py
import torch


def convert_model_file_v2_0_to_v2_1(model_v1_file, model_v2_file):
    model_v2_dict = torch.load(model_v1_file, weights_only=False)
    model_v2_dict["hyper_parameters"]["version"] = "2.1"
    torch.save(model_v2_dict, model_v2_file)
