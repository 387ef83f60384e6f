class Normalizer:
    def update(self, data):
        assert data.ndim == 2 and data.shape[1] == self.mean.shape[1]
        self.mean = data.mean(0)
