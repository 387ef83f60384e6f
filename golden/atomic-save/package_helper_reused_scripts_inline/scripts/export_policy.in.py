"""Export a trained policy's weights (a script, not part of the package)."""

import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("checkpoint")
parser.add_argument("output")
args = parser.parse_args()

state = torch.load(args.checkpoint, map_location="cpu", weights_only=True)
torch.save(state["policy"], args.output)
