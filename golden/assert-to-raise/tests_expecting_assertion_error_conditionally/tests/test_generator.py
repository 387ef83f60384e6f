from contextlib import nullcontext as does_not_raise

import pytest

from seasonal.generator import SeasonalSeries


@pytest.mark.parametrize("length_low", [5, 20])
def test_short_series_are_refused(length_low):
    context = (
        does_not_raise()
        if length_low > 10
        else pytest.raises(AssertionError)
    )
    with context:
        SeasonalSeries(length_low, prediction_length=10)
