import copy

import torch


class DQNTrainer:
    def __init__(self, policy_net, cfg):
        self.policy_net = policy_net
        self.target_net = copy.deepcopy(policy_net)
        self.cfg = cfg

    def sync_target(self):
        self.target_net.load_state_dict(self.policy_net.state_dict())

    def load(self, path):
        state = torch.load(path)
        self.policy_net.load_state_dict(state["policy"])
        self.actor.load_state_dict(state["actor"])
        self.critics[0].load_state_dict(state["critic"])
