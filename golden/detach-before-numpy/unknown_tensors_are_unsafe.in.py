import torch


def rollout(agent, env, obs):
    action, value = agent.act(torch.as_tensor(obs))
    next_obs, reward, done, _ = env.step(action.cpu().numpy())
    return next_obs, value.cpu().numpy()


def to_numpy(x: torch.Tensor):
    # A tensor passed in: as likely data as not, so nothing is said here.
    return x.cpu().numpy()
