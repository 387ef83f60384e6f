def rollout(env, horizon, n_envs):
    steps = 0
    if not (horizon > 0):
        raise ValueError("empty rollout")
    if not (n_envs > 0):
        raise ValueError("expected n_envs > 0")
    obs = env.reset()  # vectorised
    a = 1
    if env is None:
        raise ValueError("expected env is not None")
    b = 2
    return obs, steps, a, b
