# tntorch (round 29): `assert [t.dim() == 3 for t in ts]` is true for any non-empty list,
# whatever its items; slideflow's `assert([y in (0, 1) for y in y_true])` alike. Reported:
# `all(...)` was meant, and a raise would keep a check that never fails.
def curl(ts):
    assert [t.dim() == 3 for t in ts]
    return ts


def binary(y_true):
    assert([y in (0, 1) for y in y_true])
    return y_true


def write_scalars(writer, scalars, step):
    # pytorch-policy (round 41): a type never equals a string, the check always fails
    assert type(scalars) == 'dict', "scalars must be a dict"
    for name, value in scalars.items():
        writer.add_scalar(name, value, step)
