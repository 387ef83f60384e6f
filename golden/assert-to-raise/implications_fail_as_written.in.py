# An implication `not a or b` fails where `a and not b`: written so, not as
# `not (not a or b)`.
def rotate_queries(q, offsets=None, cache_if_possible: bool = True, scale=None):
    assert not offsets is not None or cache_if_possible, "offsets need the cache"
    assert not scale or scale > 0, "scale must be positive"
    assert not q.ndim == 4 or q.shape[1] in (1, 8), "expected 1 or 8 heads"
    assert (not offsets) or len(offsets) == q.shape[0], "one offset per query"
    return q
