class RunningNorm:
    def __call__(self, obs, scale):
        if obs.shape != self._obs_shape:
            raise ValueError(
                "Values given to running_norm have incorrect shape "
                "(obs shape: {},  expected shape: {})"
                .format(obs.shape, self._obs_shape)
            )
        if not (scale > 0):
            raise ValueError(
                "scale must be positive, "
                "got {}".format(scale) +
                " (check the config)"
            )
        if not (scale < 10):
            raise ValueError("scale too large")
        return obs * scale
