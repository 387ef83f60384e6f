# golden-args: --unsafe-fixes
def schedule(step, warmup, total):
    if warmup < 0:
        raise ValueError(f"warmup must be >= 0, got {warmup}")
    assert warmup >= 0 and warmup <= total
    assert step <= total, "BUG: the scheduler ran past its last step"
    assert total > 0, "this should never happen"
    assert step >= 0, f"Internal error: step {step} went negative"
    if not (total < 10**9):
        raise ValueError("debug builds cap the total")
    return min(1.0, step / max(1, warmup))


def update_requests(request_ids, total_request_count: int):
    # todo: remove these asserts?
    assert len(request_ids) <= total_request_count, "too many requests"
    return request_ids


def permute(current_dims, desired_dims):
    # vollo-torch (round 55): its compiler's own errors, called internal by their message
    assert current_dims == desired_dims, (
        "internal compiler error: sequence of transposes does not produce desired permutation"
    )
    return desired_dims
