class MultiEnvWrapper:
    def __init__(self, envs, mode="add-onehot"):
        assert mode in ["vanilla", "add-onehot", "del-onehot"]
        self._envs = envs


class FireReset:
    def __init__(self, env):
        assert len(env.get_action_meanings()) >= 3, (
            'Only use fire reset wrapper for suitable environment!')
        self._env = env
