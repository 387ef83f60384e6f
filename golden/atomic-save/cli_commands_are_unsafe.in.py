# golden-path: src/mypkg/cli/merge.py
import os

import torch


def merge_shards(shards, output_dir):
    for index, shard in enumerate(shards):
        torch.save(shard, os.path.join(output_dir, f"shard-{index}.bin"))


def save_checkpoint(trainer, output_dir):
    for step in trainer.steps():
        torch.save(trainer.state_dict(), os.path.join(output_dir, "latest.pt"))


def run_merge_shards(shards, output_dir):
    merge_shards(shards, output_dir)


def run_save_checkpoint(trainer, output_dir):
    save_checkpoint(trainer, output_dir)
