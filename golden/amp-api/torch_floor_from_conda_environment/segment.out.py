import torch


def build_scaler(cfg):
    return torch.cuda.amp.GradScaler(init_scale=cfg.init_scale, enabled=cfg.amp)


def predict(model, images):
    with torch.amp.autocast("cuda"):
        logits = model(images)
    return logits.argmax(1)


def predict_on_cpu(model, images):
    with torch.amp.autocast("cpu", dtype=torch.bfloat16):
        return model(images).argmax(1)
