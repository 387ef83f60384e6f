# hezar's resume (round 27, torch>=2.1): a scheduler's state loads with weights_only=True
# only from torch 2.4 (MultiStepLR's milestones are a Counter, OneCycleLR keeps its
# annealing function): an unsafe fix below that floor. The model's and the optimizer's
# states are tensors and plain containers: safe.
import torch


def resume(model, optimizer, scheduler, folder):
    model.load_state_dict(torch.load(f"{folder}/model.pt", weights_only=True))
    optimizer.load_state_dict(torch.load(f"{folder}/optimizer.pt", weights_only=True))
    scheduler.load_state_dict(torch.load(f"{folder}/scheduler.pt"))
