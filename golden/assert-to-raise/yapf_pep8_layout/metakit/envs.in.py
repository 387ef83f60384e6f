import akro


class SetTaskEnv:

    def set_task(self, task):
        assert self._kind is None or self._kind == task['kind']
        self._kind = task['kind']


class NoopReset:

    def __init__(self, env, noop_max):
        assert env.unwrapped.get_action_meanings()[0] == 'NOOP', (
            "No-op should be the 0-th action but it's not in {}!".format(env))
        self._noop_max = noop_max


class ArgmaxPolicy:

    def __init__(self, env_spec):
        assert isinstance(env_spec.action_space, akro.Discrete), (
            'DiscreteQFArgmaxPolicy only supports akro.Discrete action spaces')
        assert not isinstance(env_spec.observation_space, akro.Dict), (
            'CNN policies do not support with akro.Dict observation spaces.')
        self._env_spec = env_spec


def make_batch(lengths, observations, batch_size):
    if lengths is not None:
        if observations is not None:
            assert lengths.shape[0] == observations.shape[0], (
                'the lengths must have the batch size of the observations, '
                'one length per episode')
            for length in lengths:
                assert length <= batch_size, 'every episode must fit in the batch'
    return lengths


class ExtremelyLongNamedTaskEmbeddingPolicyWithAVeryLongName:

    def __init__(self, env_spec, encoder, latent_dimension):
        if env_spec is not None:
            if encoder is not None:
                if latent_dimension is not None:
                    assert not latent_dimension.is_symbolic(), (
                        'the latent dimension is symbolic here')
