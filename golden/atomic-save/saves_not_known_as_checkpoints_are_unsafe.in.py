import os

import torch


def save_checkpoint(model, path):
    torch.save(model.state_dict(), path)  # the function says checkpoint


def save_weights(model, out_dir):
    ckpt_path = os.path.join(out_dir, "last.pt")
    torch.save(model.state_dict(), ckpt_path)  # the path says checkpoint


def save_state(model, optimizer, path):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, path)


def train(model, loader, epochs, path):
    for epoch in range(epochs):
        for batch in loader:
            model(batch).mean().backward()
        torch.save(model.state_dict(), path)  # once an epoch


class Queue:
    def setup(self):
        self.queue = torch.load(self.queue_path)

    def teardown(self):
        torch.save(self.queue, self.queue_path)  # loaded back: resumed from


def save(model, path):
    torch.save(model.state_dict(), path)  # nothing says what the file is for


def write_features(features, out_file):
    torch.save(features, out_file)


def run_save_checkpoint(model, path):
    save_checkpoint(model, path)


def run_save_weights(model, out_dir):
    save_weights(model, out_dir)


def run_save_state(model, optimizer, path):
    save_state(model, optimizer, path)


def run_train(model, loader, epochs, path):
    train(model, loader, epochs, path)


def run_write_features(features, out_file):
    write_features(features, out_file)
