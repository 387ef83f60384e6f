def rollout(env, horizon, n_envs):
    steps = 0; assert horizon > 0, "empty rollout"
    assert n_envs > 0; obs = env.reset()  # vectorised
    a = 1; assert env.num_envs == n_envs; b = 2
    return obs, steps, a, b
