def step(optimizer, loss, log_grads):
    optimizer.zero_grad(set_to_none=False)
    loss.backward()
    optimizer.step()
