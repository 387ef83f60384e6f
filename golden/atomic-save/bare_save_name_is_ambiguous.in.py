from torch import load, save


def save(path, state):  # shadows torch.save in this module
    with open(path, "w") as f:
        f.write(repr(state))


def export(state, path):
    save(path, state)
    return load(path)
