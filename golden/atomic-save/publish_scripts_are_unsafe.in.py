# golden-path: scripts/publish_model.py
import torch


def process_checkpoint(in_file, out_file):
    checkpoint = torch.load(in_file, map_location="cpu")
    if "optimizer" in checkpoint:
        del checkpoint["optimizer"]
    torch.save(checkpoint, out_file)


def run_process_checkpoint(in_file, out_file):
    process_checkpoint(in_file, out_file)
