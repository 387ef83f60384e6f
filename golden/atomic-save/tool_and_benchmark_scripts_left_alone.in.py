# golden-path: benchmarks/ppo_atari.py
# Nothing else in the project names the module: a script run by hand, whose output
# running it again makes. Left alone (facenet-pytorch-custom's tensorflow2pytorch.py,
# round 51: all 9 unsafe fixes were not worth applying). A module the package imports
# stays an unsafe fix: conversion_module_the_package_imports_is_unsafe.
import torch


def run(agent, env, steps, path):
    for step in range(steps):
        agent.learn(env)
        if step % 1000 == 0:
            torch.save(agent.policy.state_dict(), path)


def main(agent, env, steps, path):
    run(agent, env, steps, path)
