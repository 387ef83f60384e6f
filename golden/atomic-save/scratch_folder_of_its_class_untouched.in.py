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


class PredictionWriter:
    """Ranks exchange predictions through a temporary folder rank 0 makes and shares."""

    def write_on_epoch_end(self, trainer, predictions, rank: int):
        if rank == 0:
            output_dir = [tempfile.mkdtemp()]
        else:
            output_dir = [None]
        torch.distributed.broadcast_object_list(output_dir)
        self.output_dir = output_dir[0]
        torch.save(predictions, os.path.join(self.output_dir, f"pred_{rank}.pt"))

    def gather_all_predictions(self, world_size: int):
        gathered = [torch.load(os.path.join(self.output_dir, f"pred_{rank}.pt"))
                    for rank in range(world_size)]
        shutil.rmtree(self.output_dir)
        return gathered
