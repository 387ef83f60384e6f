import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--ckpt", required=True)
parser.add_argument("--out", required=True)
parser.add_argument("--epochs", type=int, default=10)
args = parser.parse_args()

state = torch.load(args.ckpt, map_location="cpu")
state = {k.removeprefix("module."): v for k, v in state["model"].items()}
for epoch in range(args.epochs):  # a checkpoint every epoch, resumed from
    state["epoch"] = epoch
    torch.save(state, args.out)
