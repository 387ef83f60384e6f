def log_scalars(scalar_dict, step, info_dict, epoch_length, cfg, obs, next_obs):
    if not isinstance(scalar_dict, dict):
        raise TypeError(f'scalars should be a `dict` but got {scalar_dict}')
    if 'step' in scalar_dict:
        raise ValueError(
            'Pass the step with the step argument, '
            'not inside the scalars'
        )
    if not isinstance(info_dict, dict):
        raise TypeError(
            '`info_dict` must be a dict, '  # not a list
            f'but got {type(info_dict)}'
        )
    if not (epoch_length is not None and epoch_length > 0):
        raise ValueError(
            f'`epoch_length` must be a positive integer, '
            f'but got {epoch_length}.'
        )
    if not isinstance(cfg, (dict, list, tuple)):
        raise TypeError(f'cfg should be a dict, list or tuple, but got {type(cfg)}')
    if not (
        obs.shape[0] == next_obs.shape[0]
        and obs.shape[1] == next_obs.shape[1]
        and obs.shape[2] == next_obs.shape[2]
    ):
        raise ValueError("obs and next_obs differ")
    return step
