import torch


def save_remote(state, bucket):
    torch.save(state, "s3://checkpoints/latest.pt")
    torch.save(state, f"gs://{bucket}/latest.pt")
