import torch


def resume(model, optimizer, scheduler, path):
    ckpt = torch.load(path, map_location="cpu")
    if "state_dict" in ckpt:
        ckpt = ckpt["state_dict"]
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt.get("optimizer"))
    scheduler.load_state_dict(ckpt["scheduler"])


def load_weights(model, path):
    model.load_state_dict(torch.load(path))


def load_backbone(model, path, device):
    model.backbone.load_state_dict(torch.load(path, map_location=device)["backbone"], strict=False)


def load_embeddings(path):
    table = torch.load(path)
    return table.shape[0], torch.cat([table, table]).numpy()
