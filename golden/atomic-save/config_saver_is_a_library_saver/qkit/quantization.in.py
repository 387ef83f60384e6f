import os

import torch


def save_quantized(model, save_dir):
    """transformers' config saver writes the folder in place beside the weights."""
    os.makedirs(save_dir, exist_ok=True)
    model.config.save_pretrained(save_dir)
    if getattr(model, "generation_config", None) is not None:
        model.generation_config.save_pretrained(save_dir)
    torch.save(model.state_dict(), os.path.join(save_dir, "pytorch_model.bin"))


def save_checkpoint(model, save_dir):
    """The project's own model saver (TinyModel.save_pretrained): maybe a wrapper."""
    model.save_pretrained(save_dir)
    torch.save(model.state_dict(), os.path.join(save_dir, "pytorch_model.bin"))


def run_save_quantized(model, save_dir):
    save_quantized(model, save_dir)


def run_save_checkpoint(model, save_dir):
    save_checkpoint(model, save_dir)
