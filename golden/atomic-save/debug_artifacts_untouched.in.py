from pathlib import Path

import torch


class Trainer:
    def step(self, batch, step):
        activations = self.model(batch)
        if self.debug:
            torch.save(activations, f"activations_{step}.pt")
        if self.config.debug_tensors and step % 100 == 0:
            torch.save(batch, Path(self.config.out) / f"batch_{step}.pt")
        return activations


def dump_activations(activations, folder):
    torch.save(activations, Path(folder) / "activations.pt")


def save_inputs(inputs, debug_dir):
    torch.save(inputs, debug_dir / "inputs.pt")


class CSVLogger:
    def log_video(self, tag, video, step):
        torch.save(video, f"{self.log_dir}/{tag}_{step}.pt")


class Recorder:
    def dump(self, suffix):
        torch.save(self.frames, f"{self.tag}_{suffix}.pt")


class Experiment:
    def add_video(self, tag, video, step):
        torch.save(video, f"{self.log_dir}/videos/{tag}_{step}.pt")


class QuantLayer(torch.nn.Module):
    def save_tensor(self, out, name):
        # torchsul's per-layer activations, behind a flag: a debugging folder of dumps
        if self.get_flag("save_tensor"):
            torch.save(out, "./layer_dumps/%s.pth" % name.replace("/", "_"))
