class RunningNorm:
    def __call__(self, obs, scale):
        assert obs.shape == self._obs_shape, \
            "Values given to running_norm have incorrect shape " \
            "(obs shape: {},  expected shape: {})" \
            .format(obs.shape, self._obs_shape)
        assert scale > 0, "scale must be positive, " \
            "got {}".format(scale) + \
            " (check the config)"
        assert scale < 10, \
            "scale too large"
        return obs * scale
