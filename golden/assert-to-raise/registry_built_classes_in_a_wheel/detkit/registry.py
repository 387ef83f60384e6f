class Registry:
    def register_module(self, name=None):
        return lambda cls: cls


MODELS = Registry()
