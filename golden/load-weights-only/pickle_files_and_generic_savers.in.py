# golden-args: --unsafe-fixes
import torch


class Serializable:
    @staticmethod
    def _load_torch(zip_file, name):
        with zip_file.open(name, "r") as f:
            return torch.load(f)

    @staticmethod
    def _save_torch(zip_file, name, obj):
        # Saves any object it is handed: the module's loads may read back whole objects.
        with zip_file.open(name, "w") as f:
            torch.save(obj, f)

    def load_weights(self, model, path):
        model.load_state_dict(torch.load(path))
