# golden-path: rlkit/testing_utils.py
def make_batch(obs, actions, n_envs):
    assert obs.shape[0] == actions.shape[0], "obs and actions must align"
    assert n_envs > 0
    return obs, actions
