from rlcfg.config import rollout_length


def valid_lengths(n_envs):
    # Invalid combinations are skipped through the assert: the test relies on it.
    lengths = []
    for n_steps in range(1, 64):
        try:
            lengths.append(rollout_length(n_steps, n_envs))
        except AssertionError:
            continue
    return lengths


def test_lengths_divide_evenly():
    assert valid_lengths(8) == list(range(1, 8))
