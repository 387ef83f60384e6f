import torch


def prune_checkpoint(checkpoint_path: str, new_checkpoint_path: str) -> None:
    checkpoint = torch.load(checkpoint_path, weights_only=True)
    pruned = {"ema_model_state_dict": checkpoint["ema_model_state_dict"]}
    torch.save(pruned, new_checkpoint_path)


def save_checkpoint(model, optimizer, checkpoint_path: str) -> None:
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()},
               checkpoint_path)


def run_prune_checkpoint(checkpoint_path, new_checkpoint_path):
    prune_checkpoint(checkpoint_path, new_checkpoint_path)


def run_save_checkpoint(model, optimizer, checkpoint_path):
    save_checkpoint(model, optimizer, checkpoint_path)
