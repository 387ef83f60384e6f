class DiceLoss:
    """Dice loss for segmentation masks.

    Raises:
        AssertionError: when `squared_pred` is not a bool.
    """

    def __init__(self, squared_pred=False, smooth=1e-5):
        assert isinstance(squared_pred, bool)
        self.squared_pred = squared_pred
        self.smooth = smooth

    def forward(self, logits, target):
        """Dice loss of `logits` against a one-hot `target`.

        Raises:
            AssertionError: when the shapes of `logits` and `target` differ.
        """
        assert logits.shape == target.shape, f"{logits.shape} != {target.shape}"
        intersection = (logits * target).sum()
        return 1 - 2 * intersection / (logits.sum() + target.sum() + self.smooth)

    def reduce(self, loss, reduction):
        if reduction not in ("mean", "sum"):
            raise ValueError(f"unknown reduction {reduction}")
        return loss.mean() if reduction == "mean" else loss.sum()
