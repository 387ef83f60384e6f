import torch


class PPO:
    def surrogate(self, batch, actions_log_prob, clip_param):
        # 106 columns once clamped: past 88, within the project's 120, so on one line
        ratio = torch.exp(actions_log_prob - batch.old_actions_log_prob)
        surrogate = -torch.squeeze(batch.advantages) * ratio
        surrogate_clipped = -torch.squeeze(batch.advantages) * torch.clamp(ratio, 1.0 - clip_param, 1.0 + clip_param)
        return torch.max(surrogate, surrogate_clipped).mean()

    def symmetric_surrogate(self, batch, actions_log_prob):
        # past 120 columns once clamped: laid out over lines
        ratio = torch.exp(actions_log_prob.sum(dim=-1) - torch.squeeze(batch.old_actions_log_prob).sum(dim=-1))
        return -(torch.squeeze(batch.advantages) * ratio).mean()
