import argparse
from collections import OrderedDict

import torch


def convert(checkpoint):
    state_dict = OrderedDict()
    for key, value in checkpoint["model"].items():
        state_dict[key.replace("blocks.", "layers.")] = value
    return state_dict


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("src")
    parser.add_argument("dst")
    args = parser.parse_args()
    # An official release: it may carry the training run's argparse Namespace.
    checkpoint = torch.load(args.src, map_location="cpu")
    torch.save(convert(checkpoint), args.dst)


if __name__ == "__main__":
    main()
