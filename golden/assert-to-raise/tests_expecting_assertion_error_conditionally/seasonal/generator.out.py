class SeasonalSeries:
    def __init__(self, length_low: int, prediction_length: int):
        assert length_low > prediction_length, "series shorter than the prediction"
        self.length_low = length_low
        self.prediction_length = prediction_length


def season_length(period: int) -> int:
    if period <= 0:
        raise ValueError("period must be positive")
    return period
