import torch


class XLACheckpointIO:
    def save_checkpoint(self, checkpoint, path):
        torch.save(checkpoint, path)
