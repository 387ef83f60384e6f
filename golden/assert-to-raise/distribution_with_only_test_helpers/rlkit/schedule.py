def linear_schedule(start, end, steps):
    assert steps > 0, f"steps must be positive, got {steps}"
    return [start + (end - start) * i / steps for i in range(steps)]
