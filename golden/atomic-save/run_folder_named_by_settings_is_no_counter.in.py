# ctm-pytorch-advi (round 48): the run folder names the run's settings, its epoch count
# among them (`cfg.epochs`), and the best checkpoint in it is overwritten at each
# improvement. A count read from the settings is fixed for the run, no counter naming a
# new file per save: the save is a safe fix, as for any checkpoint kept over and over.
import os

import torch


def train(model, cfg, ckpt_base):
    run_dir = os.path.join(ckpt_base, f"ctm_k{cfg.num_topics}_e{cfg.epochs}_b{cfg.batch_size}")
    os.makedirs(run_dir, exist_ok=True)
    best_val = float("-inf")
    for epoch in range(cfg.epochs):
        val = model.fit_epoch(epoch)
        if val > best_val:
            best_val = val
            ckpt = {"model_state": model.state_dict(), "cfg": cfg}
            torch.save(ckpt, os.path.join(run_dir, "ctm.pt"))


def main(model, cfg):
    train(model, cfg, "checkpoints")
