def check_spaces(observation_space, action_space, channels_order, n_stack):
    if not isinstance(observation_space, (tuple, dict)):
        raise TypeError(
            f"Only Box and Dict observation spaces are supported, not {observation_space} (use a wrapper)"
        )
    if not (action_space.n > 1):
        raise ValueError(
            "A discrete action space needs at least two actions to learn anything at "
            "all"
        )
    if channels_order not in {
        "last",
        "first",
    }:
        raise ValueError("`channels_order` must be one of following: 'last', 'first'")
    if not (
        n_stack > 0  # frames
    ):
        raise ValueError("n_stack must be positive")
    if is_image_space_channels_first(observation_space):
        raise ValueError(
            f"The observation space {observation_space} must follow the channel last convention"
        )


def is_image_space_channels_first(space):
    return False
