import torch


def build_scaler(cfg):
    return torch.cuda.amp.GradScaler(
        init_scale=cfg.init_scale,
        growth_interval=cfg.growth_interval,  # rarely tuned
    )


def forward(model, batch, cfg):
    with torch.cuda.amp.autocast(
        cfg.amp,
        torch.bfloat16 if cfg.bf16 else torch.float16,
    ):
        return model(batch)
