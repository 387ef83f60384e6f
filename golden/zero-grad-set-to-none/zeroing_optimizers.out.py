# golden-args: --unsafe-fixes
def step(model, optimizer, loss, scaler):
    optimizer.zero_grad()
    model.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
