import os

import torch


def save_weight(input_dir: str, output_dir: str) -> None:
    state_dict = torch.load(os.path.join(input_dir, "pytorch_model.bin"), weights_only=True)
    os.makedirs(output_dir, exist_ok=True)
    torch.save(state_dict, os.path.join(output_dir, "pytorch_model.bin"))
