import torch
import torch.nn.functional as F
from torch import nn


class ValueHead(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.fc = nn.Linear(hidden, 1)
        self.log_std = nn.Parameter(torch.zeros(1))

    def forward(self, h):
        return self.fc(h)

    def log_stats(self, h, writer, step):
        values = self.fc(h)
        writer.add_histogram("values", values.detach().cpu().numpy(), step)
        writer.add_histogram("probs", F.softmax(values, dim=0).detach().cpu().numpy(), step)
        writer.add_scalar("std", self.log_std.exp().detach().cpu().numpy(), step)
        writer.add_histogram("weights", self.fc.weight.detach().cpu().numpy(), step)


def dump_parameters(head: ValueHead):
    for param in head.parameters():
        print(param.detach().cpu().numpy().shape)
    for name, weight in head.named_parameters():
        print(name, weight.detach().numpy().mean())


def fit_temperature(logits):
    temperature = torch.ones(1, requires_grad=True)
    scaled = logits / temperature
    losses = []
    for _ in range(10):
        losses.append(F.cross_entropy(scaled, torch.zeros(len(scaled), dtype=torch.long)))
    history = torch.stack(losses).detach().cpu().numpy()
    return temperature, history
