def save_weights(model, path):
    import torch

    torch.save(model.state_dict(), path)
