# tntorch (round 29): `assert [t.dim() == 3 for t in ts]` is true for any non-empty list,
# whatever its items; slideflow's `assert([y in (0, 1) for y in y_true])` alike. Reported:
# `all(...)` was meant, and a raise would keep a check that never fails.
def curl(ts):
    assert [t.dim() == 3 for t in ts]
    return ts


def binary(y_true):
    assert([y in (0, 1) for y in y_true])
    return y_true
