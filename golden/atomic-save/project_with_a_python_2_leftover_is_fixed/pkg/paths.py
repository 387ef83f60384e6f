import os


def processed_file(root, name):
    return os.path.join(root, f"processed_{name}.pt")
