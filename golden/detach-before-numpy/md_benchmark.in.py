# golden-args: --unsafe-fixes
import torch


def run(model, read_xyz, path):
    # A benchmark script, run by hand: a raise would show on its first run.
    species, coordinates, cell = read_xyz(path)
    energies = model((species, coordinates)).energies
    return cell.cpu().numpy(), energies.cpu().numpy()
