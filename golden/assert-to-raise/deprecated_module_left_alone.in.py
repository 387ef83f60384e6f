# golden-args: --unsafe-fixes
"""The old reference implementation, replaced by the package (tabm's
`tabm_reference.py`, round 37): kept as it was until it goes, exceptions included."""
import warnings

warnings.warn(
    "tabm_reference.py is deprecated, use the `tabm` package instead",
    DeprecationWarning,
)


def make_ensemble(k: int, d: int):
    assert k > 0, "k must be positive"
    assert d > 0
    return [[0.0] * d for _ in range(k)]
