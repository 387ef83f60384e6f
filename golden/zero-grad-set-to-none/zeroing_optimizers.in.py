# golden-args: --unsafe-fixes
def step(model, optimizer, loss, scaler):
    optimizer.zero_grad(set_to_none=False)
    model.zero_grad(set_to_none=False)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
