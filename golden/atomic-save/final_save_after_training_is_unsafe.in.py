# shapr-torch (round 57) and pytorch-ner (round 56): the weights are saved once, after the
# training, and a crash tears only what running again makes again; reviewers split on the
# helper there, so it is an unsafe fix. A save in the loop stays safe (checkpoint_paths).
import torch


def train(model, optimizer, loader, epochs, checkpoint_path="checkpoint.pt"):
    for _ in range(epochs):
        for inputs, targets in loader:
            loss = torch.nn.functional.mse_loss(model(inputs), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    torch.save({"model": model.state_dict()}, checkpoint_path)


def restore(model, checkpoint_path="checkpoint.pt"):
    model.load_state_dict(torch.load(checkpoint_path, weights_only=True)["model"])


def run(model, optimizer, loader):
    train(model, optimizer, loader, epochs=10)
