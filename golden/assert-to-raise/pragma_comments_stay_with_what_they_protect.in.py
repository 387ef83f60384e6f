def embed(x_categoricals, categorical_groups, scale):
    if scale:
        assert (
            x_categoricals is None and len(categorical_groups) == 0
        ), "If embedding_sizes is not a dictionary, categorical_groups and x_categoricals must be empty."  # noqa: E501
    assert scale > 0, "scale must be positive, and this message is long enough to need the noqa"  # noqa: E501
    assert isinstance(scale, float), "a float"  # type: ignore[attr-defined]
    assert (
        x_categoricals is not None
    ), "short"  # noqa: E501
    return scale
