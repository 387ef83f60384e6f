# determined (round 30) saves into the folder `store_path()` hands out, and the manager
# reports the checkpoint once the block ends; horovod saves into
# `remote_store.get_local_output_dir()` and syncs it after. No reader sees a torn file
# there: the atomic save is an unsafe fix, for a person to weigh.
import os

import torch


class Trial:
    def checkpoint(self, store, model):
        with store.store_path({"steps": 10}) as (path, storage_id):
            self._save(path, model)
        return storage_id

    def _save(self, path, model):
        torch.save({"model": model.state_dict()}, os.path.join(path, "state_dict.pth"))


def train(remote_store, model):
    with remote_store.get_local_output_dir() as run_output_dir:
        ckpt_file = os.path.join(run_output_dir, "checkpoint.pt")
        for epoch in range(3):
            torch.save({"model": model.state_dict(), "epoch": epoch}, ckpt_file)
        remote_store.sync(run_output_dir)
