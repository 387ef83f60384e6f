import os


def _rename_outputs(folder):
    """Give the converter's outputs their final names."""
    for name in os.listdir(folder):
        os.replace(os.path.join(folder, name), os.path.join(folder, name.lower()))


def _write_atomically(path, text):
    """A text writer: no torch.save goes through it."""
    temporary = f"{path}.tmp"
    with open(temporary, "w") as handle:
        handle.write(text)
    os.replace(temporary, path)


def _remove_atomically(path, trash):
    os.rename(path, trash)
    os.remove(trash)


class Trainer:
    def _save_trainer(self):
        """Atomic, but for its own file only: nothing else can use it."""
        import torch

        torch.save(self.state, f"{self.path}.tmp")
        os.replace(f"{self.path}.tmp", self.path)


def export_bundle(model, bundle_path):
    """An export that renames its temporary bundle into place: no helper to reuse."""
    import tempfile

    import torch

    folder = tempfile.mkdtemp()
    torch.save(model, os.path.join(folder, "bundle.pt"))
    os.replace(os.path.join(folder, "bundle.pt"), bundle_path)
