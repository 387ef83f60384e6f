import logging

logger = logging.getLogger(__name__)


def make_env(env_id, n_envs, frame_stack, seed, spec, wrappers):
    assert n_envs > 0, f"n_envs must be positive, got {n_envs}"
    assert frame_stack in (1, 4), (
        "frame_stack must be 1 or 4 "  # what the CNN expects
        f"(got {frame_stack})"
    )
    assert seed >= 0, ("negative seed", seed)
    assert env_id, "env id %r is empty" % env_id
    assert spec.max_episode_steps, "{} has no time limit: {}".format(
        env_id, spec
    )
    assert wrappers is not None, \
        "pass an empty list for no wrappers"
    message = f"unknown env {env_id}"
    assert env_id.startswith(("Atari", "MuJoCo")), message
    return env_id, n_envs
