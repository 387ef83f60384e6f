import logging

logger = logging.getLogger(__name__)


def make_env(env_id, n_envs, frame_stack, seed, spec, wrappers):
    if not (n_envs > 0):
        raise ValueError(f"n_envs must be positive, got {n_envs}")
    if frame_stack not in (1, 4):
        raise ValueError(
            "frame_stack must be 1 or 4 "  # what the CNN expects
            f"(got {frame_stack})"
        )
    if not (seed >= 0):
        raise ValueError(("negative seed", seed))
    if not env_id:
        raise ValueError("env id %r is empty" % env_id)
    if not spec.max_episode_steps:
        raise ValueError("{} has no time limit: {}".format(env_id, spec))
    if wrappers is None:
        raise ValueError("pass an empty list for no wrappers")
    message = f"unknown env {env_id}"
    if not env_id.startswith(("Atari", "MuJoCo")):
        raise ValueError(message)
    return env_id, n_envs
