import torch


def resume(model, optimizer, scheduler, path):
    ckpt = torch.load(path, map_location="cpu", weights_only=True)
    if "state_dict" in ckpt:
        ckpt = ckpt["state_dict"]
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt.get("optimizer"))
    scheduler.load_state_dict(ckpt["scheduler"])


def save(model, optimizer, scheduler, path):
    # the entries resume() reads are the project's own: state dicts only
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict()}, path)


def save_backbone(model, path):
    torch.save({"backbone": model.backbone.state_dict()}, path)


def load_weights(model, path):
    model.load_state_dict(torch.load(path, weights_only=True))


def load_backbone(model, path, device):
    model.backbone.load_state_dict(torch.load(path, map_location=device, weights_only=True)["backbone"], strict=False)


def load_embeddings(path):
    table = torch.load(path, weights_only=True)
    return table.shape[0], torch.cat([table, table]).numpy()
