import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--tempfile", default="scratch.pt")
tempfile = parser.parse_args().tempfile


def save(state, path):
    torch.save(state, path)
