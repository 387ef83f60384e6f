# golden-args: --unsafe-fixes
"""Training state saved in functions named for inference or per-file output is still a
checkpoint: rewritten."""

import copy

import torch


class Predictor(torch.nn.Module):
    def predict_and_save(self, x, path):
        # the model's state, not an output
        torch.save(self.state_dict(), path)

    def infer_cache(self, path):
        # learned weights, read off self
        torch.save(self.embeddings, path)


def predict_to_file(model, optimizer, path):
    torch.save(model, path)
    torch.save(optimizer.state_dict(), path + ".optim")
    torch.save({"model": model.state_dict()}, path + ".ckpt")
    torch.save(copy.deepcopy(model).cpu(), path + ".copy")


def embed_to_file(encoder, output_file):
    weights = encoder.get_weights()
    torch.save(weights, output_file)


def inference_step(x, path):
    # a parameter: not computed here, so not known to be an output
    torch.save(x, path)


def predict_checkpoint_to_file(model, audio_file, path):
    # "checkpoint" in the function's name
    torch.save(model(audio_file), path)


PRECOMPUTED = torch.zeros(1)


def infer_to_file(path):
    # a global: not computed by this function
    torch.save(PRECOMPUTED, path)
