import torch


class Agent:
    def trpo_surrogate(self, obs, action, advantages):
        # TRPO: the "old" log-probabilities are the current policy's, without gradients;
        # the ratio is exactly 1 and exists for its gradient, so exp cannot overflow.
        with torch.no_grad():
            old_action_dist = self.actor(obs)
            action_log_prob_old = old_action_dist.log_prob(action)
        action_dist = self.actor(obs)
        log_prob = action_dist.log_prob(action)
        ratio = (log_prob - action_log_prob_old).sum(dim=-1, keepdim=True).exp()
        return -(ratio * advantages).mean()

    def ppo_epochs(self, obs, action, advantages, optimizer, epochs):
        # PPO: the old log-probabilities are taken once, before the policy steps; from the
        # second epoch on the ratio is a real one and its exp can overflow.
        with torch.no_grad():
            old_log_prob = self.actor(obs).log_prob(action)
        for _ in range(epochs):
            log_prob = self.actor(obs).log_prob(action)
            ratio = torch.exp(log_prob - old_log_prob)
            loss = -(ratio * advantages).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
