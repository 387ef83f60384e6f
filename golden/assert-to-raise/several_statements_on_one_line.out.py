def rollout(env, horizon, n_envs):
    steps = 0
    if not (horizon > 0):
        raise ValueError("empty rollout")
    if not (n_envs > 0):
        raise ValueError("expected n_envs > 0")
    obs = env.reset()  # vectorised
    a = 1
    if env.num_envs != n_envs:
        raise ValueError("expected env.num_envs == n_envs")
    b = 2
    return obs, steps, a, b
