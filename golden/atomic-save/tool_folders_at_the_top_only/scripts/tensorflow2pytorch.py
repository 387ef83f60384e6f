import torch


def convert(tf_weights, names, out_dir):
    for name in names:
        torch.save(tf_weights[name], f"{out_dir}/{name}.pt")
