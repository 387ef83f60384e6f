"""Saves that a library saver does not tear: several torch.saves into one folder, a
library saver in another branch or writing another folder, a branch that returns before
the library saver runs, and a config writer beside the weights: all rewritten."""

import os

import torch
from safetensors.torch import save_file


def save_checkpoint(model, optimizer, folder):
    torch.save(model.state_dict(), os.path.join(folder, "model.pt"))
    torch.save(optimizer.state_dict(), os.path.join(folder, "optim.pt"))


def export_model(model, path, use_safetensors=False):
    if use_safetensors:
        save_file(model.state_dict(), path)
    else:
        torch.save({"state_dict": model.state_dict()}, path)


def save_for_both(model, state, hf_dir, checkpoint_path):
    model.save_pretrained(hf_dir)
    torch.save(state, checkpoint_path)


def save(model, checkpoint_dir):
    save_pretrained = getattr(model, "save_pretrained", None)
    if save_pretrained is None:
        torch.save(model.state_dict(), os.path.join(checkpoint_dir, "pytorch_model.bin"))
        return
    model.save_pretrained(checkpoint_dir)


def save_with_config(model, checkpoint_dir):
    model.config.save_config(checkpoint_dir)
    torch.save(model.state_dict(), os.path.join(checkpoint_dir, "model.pt"))


def save_or_fall_back(model, checkpoint_dir):
    try:
        model.save_pretrained(checkpoint_dir)
    except AttributeError:
        torch.save(model.state_dict(), os.path.join(checkpoint_dir, "model.pt"))


def run_save_checkpoint(model, optimizer, folder):
    save_checkpoint(model, optimizer, folder)


def run_export_model(model, path, use_safetensors):
    export_model(model, path, use_safetensors)


def run_save_for_both(model, state, hf_dir, checkpoint_path):
    save_for_both(model, state, hf_dir, checkpoint_path)


def run_save_with_config(model, checkpoint_dir):
    save_with_config(model, checkpoint_dir)


def run_save_or_fall_back(model, checkpoint_dir):
    save_or_fall_back(model, checkpoint_dir)
