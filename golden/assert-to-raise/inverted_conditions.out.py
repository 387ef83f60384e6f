def configure(env, obs, action_dim, cfg, mask, lam):
    if env.num_envs != cfg.num_envs:
        raise ValueError("expected env.num_envs == cfg.num_envs")
    if action_dim == 0:
        raise ValueError("expected action_dim != 0")
    if mask is not None:
        raise ValueError("expected mask is None")
    if cfg.device is None:
        raise ValueError("set a device")
    if cfg.algo not in {"ppo", "a2c"}:
        raise ValueError('expected cfg.algo in {"ppo", "a2c"}')
    if "cuda" in cfg.device:
        raise ValueError("CPU only")
    if cfg.share_encoder:
        raise ValueError("expected not cfg.share_encoder")
    if cfg.use_sde and cfg.squash_output:
        raise ValueError("expected not (cfg.use_sde and cfg.squash_output)")
    if not (lam < 1.0):
        raise ValueError("expected lam < 1.0")
    if not (0 <= lam <= 1):
        raise ValueError("expected 0 <= lam <= 1")
    if not (cfg.gamma > 0 and cfg.gamma <= 1):
        raise ValueError("expected cfg.gamma > 0 and cfg.gamma <= 1")
    if not (cfg.n_steps or cfg.total_timesteps):
        raise ValueError("expected cfg.n_steps or cfg.total_timesteps")
    if not ((n := len(obs)) > 1):
        raise ValueError(f"need two observations, got {n}")
    return n
