# golden-path: mypkg/trainer_v2.py
import torch


def save_checkpoint(model, path):
    torch.save(model.state_dict(), path)


def run_save_checkpoint(model, path):
    save_checkpoint(model, path)
