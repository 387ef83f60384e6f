import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader


class Policy(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.body = nn.Linear(obs_dim, 64)
        self.head = nn.Linear(64, act_dim)

    def forward(self, obs):
        return self.head(torch.tanh(self.body(obs)))

    @torch.no_grad()
    def act(self, obs):
        return self(obs).cpu().numpy()

    @torch.inference_mode()
    def act_greedy(self, obs):
        return self(obs).argmax(-1).cpu().numpy()


def collect(policy: Policy, env, steps):
    obs = env.reset()
    for _ in range(steps):
        with torch.no_grad():
            logits = policy(torch.from_numpy(obs).float())
        action = logits.argmax(-1).cpu().numpy()
        probs = logits.softmax(-1).cpu().numpy()
        obs, reward, done, info = env.step(action)
    return probs


def evaluate(policy: Policy, dataset, device):
    loader = DataLoader(dataset, batch_size=64)
    predictions, labels = [], []
    with torch.no_grad():
        for obs, target in loader:
            predictions.append(policy(obs.to(device)))
            labels.append(target)
    scores = torch.cat(predictions).cpu().numpy()
    for obs, target in loader:
        print(target.cpu().numpy(), obs.numpy())
    return scores, torch.cat(labels).cpu().numpy()


def summarize(policy: Policy, obs: np.ndarray):
    x = torch.from_numpy(obs)
    out = policy(x)
    detached = out.detach().cpu().numpy()
    data = out.data.cpu().numpy()
    forced = out.numpy(force=True)
    chosen = out.max(dim=-1)[1].cpu().numpy()
    sampled = torch.distributions.Categorical(logits=out).sample().cpu().numpy()
    nonempty = out.any(dim=-1).cpu().numpy()
    return x.numpy(), detached, data, forced, chosen, sampled, nonempty


def replay(policy: Policy, batch):
    torch.set_grad_enabled(False)
    return policy(batch).cpu().numpy()
