def update(batch, target_kl, epoch, max_epochs):
    if target_kl is not None: assert target_kl > 0, "target_kl must be positive"
    if epoch: assert epoch < max_epochs  # resumed past the end?
    else: assert max_epochs > 0; assert batch
    return batch if epoch < max_epochs else None
