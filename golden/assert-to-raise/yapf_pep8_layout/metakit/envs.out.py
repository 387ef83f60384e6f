import akro


class SetTaskEnv:

    def set_task(self, task):
        if not (self._kind is None or self._kind == task['kind']):
            raise ValueError(
                "expected self._kind is None or self._kind == task['kind']")
        self._kind = task['kind']


class NoopReset:

    def __init__(self, env, noop_max):
        if env.unwrapped.get_action_meanings()[0] != 'NOOP':
            raise ValueError("No-op should be the 0-th action but it's not "
                             "in {}!".format(env))
        self._noop_max = noop_max


class ArgmaxPolicy:

    def __init__(self, env_spec):
        if not isinstance(env_spec.action_space, akro.Discrete):
            raise TypeError('DiscreteQFArgmaxPolicy only supports '
                            'akro.Discrete action spaces')
        if isinstance(env_spec.observation_space, akro.Dict):
            raise TypeError('CNN policies do not support with akro.Dict '
                            'observation spaces.')
        self._env_spec = env_spec


def make_batch(lengths, observations, batch_size):
    if lengths is not None:
        if observations is not None:
            if lengths.shape[0] != observations.shape[0]:
                raise ValueError('the lengths must have the batch size of '
                                 'the observations, '
                                 'one length per episode')
            for length in lengths:
                if not (length <= batch_size):
                    raise ValueError('every episode must fit in the batch')
    return lengths


class ExtremelyLongNamedTaskEmbeddingPolicyWithAVeryLongName:

    def __init__(self, env_spec, encoder, latent_dimension):
        if env_spec is not None:
            if encoder is not None:
                if latent_dimension is not None:
                    if latent_dimension.is_symbolic():
                        raise ValueError(
                            'the latent dimension is symbolic here')
