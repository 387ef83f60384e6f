import torch


def resume(model, optimizer, model_path, optimizer_path):
    model.load_state_dict(torch.load(model_path, map_location="cpu"))
    optimizer.load_state_dict(
        torch.load(optimizer_path, map_location="cpu", weights_only=True)
    )
