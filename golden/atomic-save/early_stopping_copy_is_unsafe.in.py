# tytorch (round 56) and desctorch (round 54): the early-stopping helper copied from
# pytorchtools keeps the best model of the run for the same run to read back; a crash that
# tears the file ends that run too. Offered as an unsafe fix, not a safe one.
import torch


class EarlyStopping:
    def __init__(self, patience=7, path="checkpoint.pt"):
        self.patience = patience
        self.path = path
        self.best_loss = None

    def __call__(self, val_loss, model):
        if self.best_loss is None or val_loss < self.best_loss:
            self.best_loss = val_loss
            self.save_checkpoint(model)

    def save_checkpoint(self, model):
        torch.save(model.state_dict(), self.path)

    def get_best(self, model):
        model.load_state_dict(torch.load(self.path, weights_only=True))
        return model
