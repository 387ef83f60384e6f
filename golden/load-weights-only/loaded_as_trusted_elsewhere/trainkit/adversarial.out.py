import torch

from .trainer import Trainer


class AdversarialTrainer(Trainer):
    def setup(self, discriminator):
        if self.ckpt_pretrained is not None:
            checkpoint = torch.load(self.ckpt_pretrained)
            discriminator.load_state_dict(checkpoint["state_dict_D"])

    def save_discriminator(self, discriminator, path):
        torch.save({"state_dict_D": discriminator.state_dict()}, path)

    def load_discriminator(self, discriminator, path):
        discriminator.load_state_dict(
            torch.load(path, weights_only=True)["state_dict_D"]
        )
