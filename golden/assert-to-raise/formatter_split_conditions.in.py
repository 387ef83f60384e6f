def check_spaces(observation_space, action_space, channels_order, n_stack):
    assert isinstance(
        observation_space, (tuple, dict)
    ), f"Only Box and Dict observation spaces are supported, not {observation_space} (use a wrapper)"
    assert (
        action_space.n > 1
    ), "A discrete action space needs at least two actions to learn anything at all"
    assert channels_order in {
        "last",
        "first",
    }, "`channels_order` must be one of following: 'last', 'first'"
    assert (
        n_stack > 0  # frames
    ), "n_stack must be positive"
    assert not is_image_space_channels_first(
        observation_space
    ), f"The observation space {observation_space} must follow the channel last convention"


def is_image_space_channels_first(space):
    return False
