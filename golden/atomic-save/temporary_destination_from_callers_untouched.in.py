import os
import tempfile
from pathlib import Path

import torch


def _write(state, path):
    torch.save(state, path)


def publish(state, store, key):
    with tempfile.TemporaryDirectory() as folder:
        _write(state, os.path.join(folder, "state.pt"))
        store.upload(os.path.join(folder, "state.pt"), key)


class Exporter:
    def _serialize(self, model, target):
        torch.save(model.state_dict(), target)

    def export(self, model, upload):
        fd, tmp_name = tempfile.mkstemp(suffix=".pt")
        os.close(fd)
        self._serialize(model, target=tmp_name)
        upload(tmp_name)


def save(obj, path):
    torch.save(obj, path)


def save_checkpoint(obj, path):
    tmp_path = path + ".tmp"
    save(obj, tmp_path)
    os.replace(tmp_path, path)


def save_for_hub(model, save_directory, skip_weights=False):
    save_directory = Path(save_directory)
    save_directory.mkdir(exist_ok=True, parents=True)
    if not skip_weights:
        torch.save(model.state_dict(), save_directory / "pytorch_model.bin")


def push_to_hub(model, repo_id, api):
    with tempfile.TemporaryDirectory() as tmpdir:
        save_for_hub(model, save_directory=tmpdir)
        api.upload_folder(repo_id=repo_id, folder_path=tmpdir)
