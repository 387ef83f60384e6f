import torch


class Agent:
    def restore(self, path, device):
        # A whole pickled module also has .to(): this may not be weights only.
        self.policy = torch.load(path).to(device)

    def read_config(self, path):
        ckpt = torch.load(path)
        return ckpt["args"]  # an argparse.Namespace, in many training scripts


def load_codebook(path):
    # torch.from_numpy takes NumPy arrays, which weights_only=True refuses by default.
    codebook = torch.load(path)
    return torch.from_numpy(codebook["centroids"])


def load_anything(path):
    return torch.load(path, map_location="cpu")


class Learner:
    @staticmethod
    def load_checkpoint(path, device):
        # Returned: the caller reads best_performance, a NumPy scalar, from it.
        try:
            checkpoint_dict = torch.load(path, map_location=device)
            return checkpoint_dict
        except Exception:
            return None

    def resume(self, path):
        # Read for other keys than the ones load_state_dict gets: they may hold NumPy values.
        ckpt = torch.load(path, map_location="cpu")
        self.model.load_state_dict(ckpt["model"])
        self.best = ckpt.get("best_performance", 0.0)
