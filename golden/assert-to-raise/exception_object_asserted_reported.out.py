class ScaleDataset:
    def __init__(self, scales: list[int]):
        if not scales:
            assert RuntimeError("no scale given")  # always true: `raise` was meant
        self.scales = scales


def pick(scale: int, scales: list[int]) -> int:
    if scale not in scales:  # a message: a check
        raise ValueError(f"unknown scale {scale}")
    return scales.index(scale)
