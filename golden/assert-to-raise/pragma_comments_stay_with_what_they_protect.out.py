def embed(x_categoricals, categorical_groups, scale):
    if scale:
        if not (x_categoricals is None and len(categorical_groups) == 0):
            raise ValueError(
                "If embedding_sizes is not a dictionary, categorical_groups and x_categoricals must be empty."  # noqa: E501
            )
    if not (scale > 0):  # noqa: E501
        raise ValueError("scale must be positive, and this message is long enough to need the noqa")  # noqa: E501
    if not isinstance(scale, float):  # type: ignore[attr-defined]
        raise TypeError("a float")  # type: ignore[attr-defined]
    if x_categoricals is None:
        raise ValueError("short")  # noqa: E501
    return scale
