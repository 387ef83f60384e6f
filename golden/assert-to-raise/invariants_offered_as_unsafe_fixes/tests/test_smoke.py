from invariants import normalize_advantages


def test_normalize_advantages():
    normalize_advantages([1.0])
