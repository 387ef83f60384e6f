import torch


class CNNTrainer:
    """acme/ and acme/learn/ are namespace packages every acme.* distribution shares:
    the helper module goes in acme.learn.trainkit, the first package of this one."""

    def train(self, loader, epochs, folder):
        for epoch in range(epochs):
            self.step(loader)
            state = {"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                     "epoch": epoch}
            torch.save(state, f"{folder}/checkpoint.pth")
