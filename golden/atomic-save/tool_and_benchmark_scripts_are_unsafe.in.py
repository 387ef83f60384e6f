# golden-path: benchmarks/ppo_atari.py
import torch


def run(agent, env, steps, path):
    for step in range(steps):
        agent.learn(env)
        if step % 1000 == 0:
            torch.save(agent.policy.state_dict(), path)


def main(agent, env, steps, path):
    run(agent, env, steps, path)
