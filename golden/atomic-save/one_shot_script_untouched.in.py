"""A script that converts a checkpoint once: running it again makes the file again."""

import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--ckpt", required=True)
parser.add_argument("--out", required=True)
args = parser.parse_args()

state = torch.load(args.ckpt, map_location="cpu")
state = {k.removeprefix("module."): v for k, v in state["model"].items()}
torch.save(state, args.out)
