import torch


class Trainer:
    def __init__(self, model, ckpt_pretrained=None):
        self.model = model
        self.ckpt_pretrained = ckpt_pretrained

    def load_model(self):
        ckpt_pretrained = self.ckpt_pretrained
        if ckpt_pretrained is not None:
            # the checkpoint holds the losses and custom objects save_model wrote
            checkpoint = torch.load(ckpt_pretrained, map_location="cpu", weights_only=False)
            self.model.load_state_dict(checkpoint["state_dict"])
