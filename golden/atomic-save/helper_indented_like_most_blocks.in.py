import os

import torch

try:
   from torch import GradScaler
except ImportError:
   from torch.cuda.amp import GradScaler


class Trainer:
    def __init__(self, network, output_folder):
        self.network = network
        self.output_folder = output_folder
        self.grad_scaler = GradScaler("cuda")

    def save_checkpoint(self, filename):
        checkpoint = {
            "network_weights": self.network.state_dict(),
            "grad_scaler_state": self.grad_scaler.state_dict(),
        }
        torch.save(checkpoint, os.path.join(self.output_folder, filename))
