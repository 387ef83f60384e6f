AVAILABLE_LR_SCHEDULES = ("constant", "linear", "cosine")


def make_schedule(learning_rate_schedule_name, warmup_steps, decay_steps):
    assert learning_rate_schedule_name in AVAILABLE_LR_SCHEDULES
    assert warmup_steps is None or 0 <= warmup_steps < decay_steps + len(AVAILABLE_LR_SCHEDULES)
    return learning_rate_schedule_name, warmup_steps
