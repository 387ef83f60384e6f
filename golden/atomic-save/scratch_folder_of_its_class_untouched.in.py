import os
import queue
import shutil
import tempfile
import uuid

import torch


class DiskOffloadManager:
    """Offloads activations into a scratch folder of its own."""

    def __init__(self):
        self.temp_dir = tempfile.mkdtemp(prefix="disco_")
        self.queue = queue.Queue()

    def offload(self, tensor):
        file_path = os.path.join(self.temp_dir, f"{uuid.uuid4()}.pt")
        self.queue.put((tensor, file_path))

    def _save_tensor_to_disk(self, tensor, file_path):
        torch.save(tensor.cpu(), file_path)

    def spill(self, tensor, index):
        torch.save(tensor, os.path.join(self.temp_dir, f"{index}.pt"))

    def close(self):
        shutil.rmtree(self.temp_dir, ignore_errors=True)
