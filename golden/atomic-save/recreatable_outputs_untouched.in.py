"""Files a crash mid-write costs only a re-run of: results, caches, one-shot outputs."""

import os
from pathlib import Path

import click
import torch
import typer
from torch_geometric.data import Data

app = typer.Typer()


def evaluate(model, loader, run_name):
    accuracy = sum(model(x).argmax(-1).eq(y).sum() for x, y in loader)
    torch.save(accuracy, f"run_results_{run_name}.pt")


def log_evaluation(coco_evaluator, output_dir: Path, epoch):
    (output_dir / "eval").mkdir(exist_ok=True)
    for name in ["latest.pth", f"{epoch:03}.pth"]:
        torch.save(coco_evaluator.coco_eval["bbox"].eval, output_dir / "eval" / name)


def text_embeddings(model, texts, cache_path: Path):
    if cache_path.exists():
        return torch.load(cache_path)
    table = {text: model.encode(text) for text in texts}
    torch.save(table, cache_path)
    return table


def features(extractor, dataset, path):
    if not os.path.exists(path):
        torch.save(extractor(dataset), path)
    return torch.load(path)


def main():
    model = torch.nn.Linear(2, 2)
    for _ in range(10):
        model.step()
    torch.save(model.state_dict(), "final.pt")  # written once, at the end


@app.command()
def strip(checkpoint: Path, into: Path):
    state = torch.load(checkpoint, weights_only=True)
    torch.save({"state_dict": state["state_dict"]}, into)


@click.command()
@click.argument("out")
def export(out):
    torch.save(torch.nn.Linear(2, 2).state_dict(), out)


if __name__ == "__main__":
    model = torch.nn.Linear(2, 2)
    torch.save(model.state_dict(), "model.pt")


class GraphDataset:
    def __init__(self):
        self.data, self.slices = torch.load(self.processed_paths[0])

    def download(self):
        # and its raw files, downloaded again when missing and read back by `build()`
        # (pytorch-concepts, round 54)
        data, targets = self.fetch()
        torch.save(data, self.raw_paths[0])
        torch.save(targets, self.raw_paths[1])

    def build(self):
        return torch.load(self.raw_paths[0]), torch.load(self.raw_paths[1])

    def process(self):
        # PyG's processed file, made again from the raw files when missing
        # (torch-geometric-pool, round 53; `edge_weights` is graph data, no training state)
        edge_index, edge_weights = self.graph()
        data_list = [Data(edge_index=edge_index, edge_weight=edge_weights.float())]
        torch.save(self.collate(data_list), self.processed_paths[0])
