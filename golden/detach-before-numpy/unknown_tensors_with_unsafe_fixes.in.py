# golden-args: --unsafe-fixes
# Reported, not fixed, even under --unsafe-fixes (rounds 24 and 25 judged 6 of 7 such
# fixes pointless): code that runs routinely would already have raised.
import torch


def rollout(agent, env, obs):
    action, value = agent.act(torch.as_tensor(obs))
    next_obs, reward, done, _ = env.step(action.cpu().numpy())
    return next_obs, (value * 0.5).cpu().numpy()


def visualize(model, image):
    attention = model.encoder(image).attentions[-1]
    grid = (
        attention.mean(dim=1)
        .cpu()
        .numpy()
    )
    return grid
