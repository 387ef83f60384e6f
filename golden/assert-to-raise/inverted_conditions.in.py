def configure(env, obs, action_dim, cfg, mask, lam):
    assert env.num_envs == cfg.num_envs
    assert action_dim != 0
    assert mask is None
    assert cfg.device is not None, "set a device"
    assert cfg.algo in {"ppo", "a2c"}
    assert "cuda" not in cfg.device, "CPU only"
    assert not cfg.share_encoder
    assert not (cfg.use_sde and cfg.squash_output)
    assert lam < 1.0
    assert 0 <= lam <= 1
    assert cfg.gamma > 0 and cfg.gamma <= 1
    assert cfg.n_steps or cfg.total_timesteps
    assert (n := len(obs)) > 1, f"need two observations, got {n}"
    return n
