import torch


def save_best_checkpoint(model, path):
    for _ in range(2):
        torch.save(model.state_dict(), path)


def run_save_best_checkpoint(model, path):
    save_best_checkpoint(model, path)
