# golden-args: --unsafe-fixes
# fuzzytorch (round 47): an assert after `assert 0, "not implemented"` (or a raise, a
# return) never runs; a raise in its place would be dead code too. The stub itself still
# becomes a raise that survives -O; the live check of the other function is converted.
def count_memory_mb(module, bits):
    assert 0, "not implemented"
    assert bits > 0, "expected bits > 0"
    return bits * sum(p.numel() for p in module.parameters()) / 8 / 2**20


def count_parameters(module, bits):
    assert bits > 0, "expected bits > 0"
    return sum(p.numel() for p in module.parameters())
