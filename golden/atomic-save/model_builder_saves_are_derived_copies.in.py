# golden-args: --unsafe-fixes
# A function that sets a model up from pretrained weights and returns it (FlagEmbedding's
# `get_model`, round 21) writes a file made from weights that are still there, again on
# every run's setup: a derived copy, so only an unsafe fix. A training checkpoint saved
# by another function is rewritten as before.
import os

import torch
from transformers import AutoModel


def get_model(model_args, output_dir, resize_tokens):
    model = AutoModel.from_pretrained(model_args.model_name_or_path)
    model.resize_token_embeddings(resize_tokens)
    torch.save(model.embed_tokens, os.path.join(output_dir, "embedding", "emb.pth"))
    return model


def load_embedding(output_dir):
    return torch.load(os.path.join(output_dir, "embedding", "emb.pth"))


def save_checkpoint(model, optimizer, step, checkpoint_dir):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "step": step}, os.path.join(checkpoint_dir, "checkpoint.pt"))


def run_save_checkpoint(model, optimizer, step, checkpoint_dir):
    save_checkpoint(model, optimizer, step, checkpoint_dir)
