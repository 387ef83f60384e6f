# golden-args: --unsafe-fixes
import random

import torch
from torch import nn


def to_device(data, device):
    return {k: v.to(device) for k, v in data.items()}


class PPOPolicy:
    def get_returns(self, data):
        # Fields of collected data (DI-engine's ppo.py): no grad.
        data = to_device(data, "cuda")
        unnormalized_return = data["adv"] + data["value"] * self.running_mean_std.std
        self.running_mean_std.update(unnormalized_return.cpu().numpy())
        advantages = data.adv * 2
        return advantages.cpu().numpy()


class RndRewardModel:
    def train_step(self):
        # Stacked from collected observations (DI-engine's rnd_reward_model.py).
        train_data = random.sample(self.train_obs, 32)
        train_data = torch.stack(train_data).to(self.device)
        self.obs_stats.update(train_data.cpu().numpy())


def evaluate_episode(policy, env):
    # `policy.eval(obs)` runs the policy's eval forward, under no_grad.
    obs = torch.as_tensor(env.ready_obs).float()
    inference_output = policy.eval(obs)
    inference_output = inference_output.cpu()
    return inference_output.numpy()


def run_test(trainer, model, test_loader):
    # Lightning runs `trainer.predict` under inference_mode (chemprop's cli/train.py).
    predss = trainer.predict(model, dataloaders=test_loader)
    preds = torch.concat(predss, 0)
    return preds.numpy()


def read_frames(path):
    species, coordinates = load(path)
    cell = None
    if path.endswith(".pbc"):
        cell = torch.tensor(read_cell(path))
    return torch.tensor(species), torch.tensor(coordinates), cell


def simulate(path):
    # `cell` is what a function of this file builds with `torch.tensor` (torchani's io).
    species, coordinates, cell = read_frames(path)
    return cell.cpu().numpy()


class Calculator(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Linear(3, 1)

    def forward(self, positions):
        energy = self.model(positions)
        return {"energy": energy.detach(), "positions": positions.detach()}


def energies(calc, positions):
    # Every return of `calc_energies` is detached already (nequip's torchsim calculator).
    result = calc_energies(calc, positions)
    return result.cpu().numpy()


def calc_energies(calc, positions):
    energy = calc.model(positions)
    return energy.detach()


class TestCalculator:
    def check_batched(self, calc, state):
        # A pytest class outside a test file (nequip's utils/unittests/): a raise would fail it.
        result = calc(state)
        return result["forces"].cpu().numpy()


def test_forces(calc, state):
    result = calc(state)
    assert result["forces"].cpu().numpy().shape


class MultiBackend:
    def forward(self, im):
        # `im` is the image passed in: the numpy conversion in another `elif` arm does
        # not reach this read (yolov5's DetectMultiBackend.forward).
        if self.fp16:
            im = im.half()
        if self.dnn:
            im = im.cpu().numpy()
            y = self.net.forward(im)
        elif self.onnx:
            im = im.cpu().numpy()
            y = self.session.run(im)
        return y
