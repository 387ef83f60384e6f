from .._torchfix_atomic_save import atomic_save
from ..utils import checkpoint_path


class MLPTrainer:
    def train(self, loader, epochs, folder):
        for epoch in range(epochs):
            self.step(loader)
            state = {"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                     "epoch": epoch}
            atomic_save(state, checkpoint_path(folder, epoch))
