from torch import nn

try:
    assert not TESTS_RUNNING  # noqa: F821
    import wandb

    assert hasattr(wandb, "__version__")
except (ImportError, AssertionError):
    wandb = None


def validate_config(config):
    assert config.n_envs > 0, "n_envs must be positive"


def load_config(config):
    try:
        validate_config(config)
    except AssertionError as exc:
        raise SystemExit(f"invalid config: {exc}")
    return config


def build(policy, n_layers):
    try:
        assert isinstance(policy, nn.Module)
    except AssertionError:
        policy = nn.Sequential(*policy)
    assert n_layers > 0
    return policy
