def log_scalars(scalar_dict, step, info_dict, epoch_length, cfg, obs, next_obs):
    assert isinstance(scalar_dict,
                      dict), f'scalars should be a `dict` but got {scalar_dict}'
    assert 'step' not in scalar_dict, 'Pass the step with the step argument, ' \
                                      'not inside the scalars'
    assert isinstance(info_dict, dict), ('`info_dict` must be a dict, '  # not a list
                                         f'but got {type(info_dict)}')
    assert epoch_length is not None and epoch_length > 0, \
        f'`epoch_length` must be a positive integer, ' \
        f'but got {epoch_length}.'
    assert isinstance(
        cfg,
        (dict, list, tuple
         )), f'cfg should be a dict, list or tuple, but got {type(cfg)}'
    assert obs.shape[0] == next_obs.shape[0] and obs.shape[1] == next_obs.shape[1] and obs.shape[
        2] == next_obs.shape[2], "obs and next_obs differ"
    return step
