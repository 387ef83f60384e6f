def schedule(step, warmup, total):
    if warmup < 0:
        raise ValueError(f"warmup must be >= 0, got {warmup}")
    if not (warmup >= 0 and warmup <= total):
        raise ValueError("expected warmup >= 0 and warmup <= total")
    if not (step <= total):
        raise ValueError("BUG: the scheduler ran past its last step")
    if not (total > 0):
        raise ValueError("this should never happen")
    if not (step >= 0):
        raise ValueError(f"Internal error: step {step} went negative")
    if not (total < 10**9):
        raise ValueError("debug builds cap the total")
    return min(1.0, step / max(1, warmup))
