# golden-args: --unsafe-fixes
import torch
import torch.nn as nn


def update(agent, optimizer, b_obs, b_actions, b_logprobs, b_advantages, mb_inds, args):
    _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb_inds], b_actions[mb_inds])
    logratio = newlogprob - b_logprobs[mb_inds]
    ratio = logratio.clamp(-20.0, 20.0).exp()

    with torch.no_grad():
        # calculate approx_kl http://joschu.net/blog/kl-approx.html
        old_approx_kl = (-logratio).mean()
        approx_kl = ((ratio - 1) - logratio).mean()

    mb_advantages = b_advantages[mb_inds]
    pg_loss1 = -mb_advantages * ratio
    pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)
    pg_loss = torch.max(pg_loss1, pg_loss2).mean()

    optimizer.zero_grad()
    (pg_loss - args.ent_coef * entropy.mean()).backward()
    nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
    optimizer.step()
    return approx_kl, old_approx_kl
