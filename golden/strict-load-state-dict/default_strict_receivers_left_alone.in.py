# golden-args: --unsafe-fixes
import pytorch_lightning as pl
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)


class LitNet(pl.LightningModule):
    pass


class Agent:
    def __init__(self, policy_cls, optimizer_cls):
        self.policy = policy_cls()
        self.net = Net()
        self.optimizer = optimizer_cls(self.net.parameters())

    def resume(self, ckpt):
        # strict=True is what Module.load_state_dict does when not told: writing it out
        # changes nothing, so none of these is touched.
        self.net.load_state_dict(ckpt["net"])
        self.policy.load_state_dict(ckpt["policy"])
        self.optimizer.load_state_dict(ckpt["optimizer"])

    def load_net(self, ckpt, strict=True):
        # This function's own `strict` is dropped: reported. An optimizer takes none.
        self.net.load_state_dict(ckpt["net"])
        self.optimizer.load_state_dict(ckpt["optimizer"])


def restore(model: nn.Module, lit: LitNet, thing, path):
    ckpt = torch.load(path)
    model.load_state_dict(ckpt["model"])
    lit.load_state_dict(ckpt["lit"])
    thing.load_state_dict(ckpt["thing"])
    # The keys it returns are thrown away: reported.
    model.load_state_dict(ckpt["model"], strict=False)
