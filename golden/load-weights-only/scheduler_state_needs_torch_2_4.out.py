# hezar's resume (round 27, torch>=2.1): a scheduler's state loads with weights_only=True
# only from torch 2.4 (MultiStepLR's milestones are a Counter, OneCycleLR keeps its
# annealing function): an unsafe fix below that floor. The model's and the optimizer's
# states are tensors and plain containers: safe.
import torch


def resume(model, optimizer, scheduler, folder):
    model.load_state_dict(torch.load(f"{folder}/model.pt", weights_only=True))
    optimizer.load_state_dict(torch.load(f"{folder}/optimizer.pt", weights_only=True))
    scheduler.load_state_dict(torch.load(f"{folder}/scheduler.pt"))


def load_model(self, load_path):
    # trainer-pytorch (round 40, torch>=2.2): one checkpoint, read into the scheduler too
    state_dict = torch.load(load_path, map_location=self.device)
    self.model.load_state_dict(state_dict["model_state_dict"])
    self.optimizer.load_state_dict(state_dict["optimizer_state_dict"])
    if "scheduler_state_dict" in state_dict and self.scheduler is not None:
        self.scheduler.load_state_dict(state_dict["scheduler_state_dict"])


def save_model(self, save_path):
    torch.save({
        "model_state_dict": self.model.state_dict(),
        "optimizer_state_dict": self.optimizer.state_dict(),
        "scheduler_state_dict": self.scheduler.state_dict(),
    }, save_path)
