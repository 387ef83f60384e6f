# An implication `not a or b` fails where `a and not b`: written so, not as
# `not (not a or b)`.
def rotate_queries(q, offsets=None, cache_if_possible: bool = True, scale=None):
    if offsets is not None and not cache_if_possible:
        raise ValueError("offsets need the cache")
    if scale and not (scale > 0):
        raise ValueError("scale must be positive")
    if q.ndim == 4 and q.shape[1] not in (1, 8):
        raise ValueError("expected 1 or 8 heads")
    if offsets and len(offsets) != q.shape[0]:
        raise ValueError("one offset per query")
    return q
