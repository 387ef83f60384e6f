import torch


def restore(agent, path):
    state = torch.load(path)
    agent.load_state_dict(state)
    agent.model_ema.load_state_dict(state["ema"])
