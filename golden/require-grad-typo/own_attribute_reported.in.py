class LayerConfig:
    def __init__(self, require_grad):
        self.require_grad = require_grad  # this class's own flag, spelled this way


def build(config, layer):
    if config.require_grad:
        layer.weight.requires_grad_(True)
    return layer
