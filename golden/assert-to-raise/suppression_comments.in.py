def schedule(lr, warmup_steps, total_steps):
    assert lr > 0  # torchfix: ignore
    assert warmup_steps >= 0  # torchfix: ignore[assert-to-raise]
    assert (
        warmup_steps < total_steps
    ), "warmup longer than training"  # torchfix: ignore
    return lr
