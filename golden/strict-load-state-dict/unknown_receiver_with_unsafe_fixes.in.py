# golden-args: --unsafe-fixes
import torch


def restore(agent, path):
    state = torch.load(path)
    agent.load_state_dict(state)
