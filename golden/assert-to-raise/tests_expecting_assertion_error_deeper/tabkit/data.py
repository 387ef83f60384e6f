class DataModule:
    def __init__(self, frame, config):
        self.frame = frame
        self.config = config

    def prepare(self, validation_split):
        assert 0.0 < validation_split < 1.0, "validation_split must be in (0, 1)"
        cut = int(len(self.frame) * (1 - validation_split))
        return self.frame[:cut], self.frame[cut:]
