# An assert that the `if` around it already decides cannot fail: in the `else` of a test
# of its failure (careamics' `if max_val is None: ... else: assert max_val is not None`,
# round 25), or in the body of a test of itself. Left alone. `assert bsz, src_len ==
# value.shape[:2]` (torchscale, round 25) checks only `bsz`: the tuple was split at its
# comma into a test and a message, and a rewrite would keep the bug: reported. So is
# `assert "not a valid action: {}".format(action)` (pytext, round 26): a string, always
# true, where a raise was meant.
def normalize(data, max_val=None):
    if max_val is None:
        max_val = data.max()
    else:
        assert max_val is not None
    return data / max_val


def scale(data, factor):
    if factor > 0:
        assert factor > 0, "factor must be positive"
        return data * factor
    return data


def attention(query, value, bsz, src_len):
    assert bsz, src_len == value.shape[:2]
    return query


def apply_action(action, valid):
    if action not in valid:
        assert "not a valid action: {}".format(action)
    return action


def window(data, size):
    assert size > 0, "size must be positive"
    return data[:size]


def residual(x, mlp, time_emb=None):
    # torchmanager-diffusion (round 41): the `if` `and`s the condition with another
    if mlp is not None and time_emb is not None:
        assert time_emb is not None, "Time embedding must be passed in"
        x = x + mlp(time_emb)
    return x


def make_loader(dataset, rank, use_coworker):
    # atorch (round 43): the `else` of an `or` whose one test is exactly the failure
    if use_coworker or rank != 0:
        loader = iter(dataset)
    else:
        assert rank == 0
        loader = dataset
    return loader
