def step(optimizer, model, cfg):
    optimizer.zero_grad()
    optimizer.zero_grad(set_to_none=True)
    model.zero_grad(set_to_none=cfg.set_to_none)
