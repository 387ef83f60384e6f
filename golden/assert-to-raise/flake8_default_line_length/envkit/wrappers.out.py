class MultiEnvWrapper:
    def __init__(self, envs, mode="add-onehot"):
        if mode not in ["vanilla", "add-onehot", "del-onehot"]:
            raise ValueError(
                'expected mode in ["vanilla", "add-onehot", "del-onehot"]'
            )
        self._envs = envs


class FireReset:
    def __init__(self, env):
        if len(env.get_action_meanings()) < 3:
            raise ValueError(
                'Only use fire reset wrapper for suitable environment!')
        self._env = env
