class NearestClassMean:
    def adapt(self, class_means, momentum, x):
        # The message fitted on its own line under the assert; one level deeper it
        # would not: its parts go on lines of their own, split after a space.
        if not isinstance(class_means, dict):
            raise TypeError(
                "class_means must be a dictionary mapping each class_id "
                "to a mean vector"
            )
        if not (0.0 <= momentum <= 1.0):
            raise ValueError(
                "momentum weights the old mean against the new one and must be in "
                "[0, 1]"
            )
        if not (
            x.shape[0] == momentum.shape[0] and x.shape[1] == momentum.shape[1] + 1
        ):
            raise ValueError(
                "expected x.shape[0] == momentum.shape[0] and x.shape[1] == "
                "momentum.shape[1] + 1"
            )
        # Still fits one level deeper: left as it is.
        if x.ndim != 2:
            raise ValueError("x must be a batch of vectors")
