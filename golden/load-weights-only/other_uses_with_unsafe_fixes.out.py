# golden-args: --unsafe-fixes
import torch


class Agent:
    def restore(self, path, device):
        # A whole pickled module also has .to(): this may not be weights only.
        self.policy = torch.load(path, weights_only=True).to(device)

    def read_config(self, path):
        ckpt = torch.load(path)
        return ckpt["args"]  # an argparse.Namespace, in many training scripts


def load_codebook(path):
    # torch.from_numpy takes NumPy arrays, which weights_only=True refuses by default.
    codebook = torch.load(path, weights_only=True)
    return torch.from_numpy(codebook["centroids"])


def load_anything(path):
    return torch.load(path, map_location="cpu", weights_only=True)
