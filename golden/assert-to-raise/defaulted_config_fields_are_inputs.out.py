# golden-args: --unsafe-fixes
class AsymKNN:
    def __init__(self, config: dict) -> None:
        self.k = config["k"]
        self.alpha = config["alpha"] if "alpha" in config else 0.5
        self.q = config.get("q", 1)
        self.scale = self.alpha * 2
        if not (0 <= self.alpha <= 1):
            raise ValueError(f"'alpha' must be in [0, 1], but got {self.alpha}")
        if not isinstance(self.k, int):
            raise TypeError(f"'k' must be an integer, but got {self.k}")
        if not isinstance(self.q, int):
            raise TypeError(f"'q' must be an integer, but got {self.q}")
        assert self.scale <= 2
