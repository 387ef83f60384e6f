def configure(model_name, batch_size, density_estimator, allowed_false_negatives):
    # The raise's first line fits: left as it is.
    if model_name not in ("a", "b"):
        raise ValueError("""The model name must be one of the supported ones.
    See the documentation for the list of models.""")
    if batch_size:
        # Too long on the raise's line: the string moves to a line of its own, its text
        # (the indentation of its second line included) unchanged.
        if not (batch_size > 0):
            raise ValueError(
                """batch_size must be positive: got a non-positive batch size
        which is not allowed."""
            )
    if isinstance(density_estimator, str):
        if density_estimator != "mnle":
            raise ValueError(f"""MNLE works with 'mnle' only,
            not with {density_estimator}.""")
        if not density_estimator:
            raise ValueError(
                f"""the density estimator for {model_name} must be a non-empty name
            so it may not be empty."""
            )
    # Too long on a line of its own too: left on the raise's line.
    if allowed_false_negatives is not None:
        raise ValueError("""Both `allowed_false_negatives` and `reweigh_factor` are set.
    Set only one of them.""")
    return model_name
