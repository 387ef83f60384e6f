# golden-args: --unsafe-fixes
from torch import load, save


def save_policy(policy, path):
    save(policy.state_dict(), path)


def load_policy(policy, path):
    policy.load_state_dict(load(path))
