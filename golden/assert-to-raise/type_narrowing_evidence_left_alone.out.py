from torch import nn

from .registry import policy_registry


class Embeddings(nn.Module):
    pass


class Attention(nn.Module):
    pass


@policy_registry.register(Embeddings, Attention)
def convert(module: nn.Module, index: int):
    # registered for exactly these classes: the dispatcher passes nothing else
    assert isinstance(module, (Embeddings, Attention))
    return module


@policy_registry.register(Embeddings)
def convert_other(module: nn.Module, index: int):
    # registered for another class than the one checked: still a check
    if not isinstance(module, Attention):
        raise TypeError("expected isinstance(module, Attention)")
    return module


def parallelize(model: nn.Module, tp_config):
    mesh = tp_config.device_mesh
    assert mesh is not None  # For type checking, set in State.__init__
    return model, mesh


def shard(model: nn.Module, mesh):
    # mypy: the mesh is set by now
    assert mesh is not None
    return model, mesh


def scale(model: nn.Module, factor):
    if factor is None:  # the caller must pick a factor
        raise ValueError("expected factor is not None")
    return model, factor


def stacked_weights(wrapper: nn.Module, adapter: str):
    weight = wrapper.lora_A[adapter].weight
    assert isinstance(weight, nn.Parameter)
    return weight


def reshape(raw_data, space, num_envs: int):
    if isinstance(space, dict):
        assert not isinstance(raw_data, (list, tuple))  # mirrors the space
        return {key: raw_data[key] for key in space}
    elif isinstance(space, tuple):
        assert isinstance(raw_data, tuple)
        return raw_data
    else:
        assert not isinstance(raw_data, (dict, tuple))
        return raw_data


def pick(raw_data, num_envs: int):
    # no branch on the type of another value: a check of the argument
    if not isinstance(raw_data, tuple):
        raise TypeError("expected isinstance(raw_data, tuple)")
    return raw_data[:num_envs]
