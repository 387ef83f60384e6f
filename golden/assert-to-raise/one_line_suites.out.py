def update(batch, target_kl, epoch, max_epochs):
    if target_kl is not None:
        if not (target_kl > 0):
            raise ValueError("target_kl must be positive")
    if epoch:  # resumed past the end?
        if not (epoch < max_epochs):
            raise ValueError("expected epoch < max_epochs")
    else:
        if not (max_epochs > 0):
            raise ValueError("expected max_epochs > 0")
        if not batch:
            raise ValueError("expected batch")
    return batch if epoch < max_epochs else None
