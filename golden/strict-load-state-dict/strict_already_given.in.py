def load(model, ckpt, cfg):
    model.load_state_dict(ckpt["model"], strict=True)
    model.load_state_dict(ckpt["model"], strict=cfg.strict_load)
    model.load_state_dict(ckpt["model"], True)
    missing, unexpected = model.load_state_dict(ckpt["backbone"], strict=False)
    if unexpected:
        raise ValueError(f"unexpected keys: {unexpected}")
    model.load_state_dict(ckpt["head"], strict=False)
    return missing
