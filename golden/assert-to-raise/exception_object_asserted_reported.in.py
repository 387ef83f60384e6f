class ScaleDataset:
    def __init__(self, scales: list[int]):
        if not scales:
            assert RuntimeError("no scale given")  # always true: `raise` was meant
        self.scales = scales


def pick(scale: int, scales: list[int]) -> int:
    assert scale in scales, ValueError(f"unknown scale {scale}")  # a message: a check
    return scales.index(scale)
