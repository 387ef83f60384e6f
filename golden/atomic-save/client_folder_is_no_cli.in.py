# golden-path: src/mypkg/client/sync.py
import torch


def sync(models, ckpt_path):
    for model in models:
        torch.save(model.state_dict(), ckpt_path)
