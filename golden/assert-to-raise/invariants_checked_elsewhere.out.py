# golden-args: --unsafe-fixes
from torch.utils.data import DataLoader


class Augment:
    def match(self, state):
        return isinstance(state.loader, DataLoader)

    def apply(self, state, loader, batch):
        assert isinstance(loader, DataLoader), "loader type checked on match()"
        assert batch.dim() == 4, "the batch layout is guaranteed by the collate function"
        assert len(batch) > 0, "empty batches were already validated"
        if batch.shape[1] != 3:
            raise ValueError("the channels must be checked before augmenting")
        if batch.shape[2] <= 1:
            raise ValueError("convergence is not guaranteed by a 1-pixel image")
        return batch
