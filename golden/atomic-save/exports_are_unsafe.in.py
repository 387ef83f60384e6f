import os
from pathlib import Path

import torch
from artifact_experiment.spi.callbacks import ExportCallback


class GraphModule(torch.nn.Module):
    def to_folder(self, folder, module_name="FxModule"):
        folder = Path(folder)
        folder.mkdir(exist_ok=True)
        torch.save(self.state_dict(), folder / "state_dict.pt")
        (folder / "module.py").write_text(self.code)


def export_for_serving(model, out_dir):
    torch.save(model.state_dict(), os.path.join(out_dir, "weights.pt"))


def save_checkpoint(model, path):
    torch.save(model.state_dict(), path)


def run_export_for_serving(model, out_dir):
    export_for_serving(model, out_dir)


def run_save_checkpoint(model, path):
    save_checkpoint(model, path)


class CheckpointCallback(ExportCallback["CheckpointResources"]):
    # the framework's exporter hands a fresh folder, uploads the file and deletes it
    @classmethod
    def _save_local(cls, resources, filepath):
        torch.save(resources.export_data, filepath)
        return filepath
