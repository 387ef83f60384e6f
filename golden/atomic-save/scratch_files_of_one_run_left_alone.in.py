# Files that protect nothing across runs are left alone (round 25): early stopping's best
# weights, saved and restored by the same training loop (lightautoml's L2X: a crash
# loses the run that would read them), and a cache in a `temp/` folder of the working
# folder, rebuilt when missing (cornac's encoded corpus). A file saved in one branch of an
# `if` and loaded in the other, where one run takes one branch only (no loop repeats the
# `if`, or its test reads only parameters: elegantrl's `save_or_load_agent(cwd,
# if_save)`), is read by a later run, and is rewritten.
import os

import torch


class L2X:
    def __init__(self, cache_dir):
        self._checkpoint_path = cache_dir + "/l2x_checkpoint.pt"

    def train(self, model, epochs, patience, evaluate):
        best_loss, best_epoch = float("inf"), 0
        for epoch in range(epochs):
            loss = evaluate(model)
            if loss < best_loss:
                best_loss, best_epoch = loss, epoch
                torch.save(model.state_dict(), self._checkpoint_path)
            elif epoch - best_epoch > patience:
                model.load_state_dict(torch.load(self._checkpoint_path))
                break


class TextModality:
    def preencode_entire_corpus(self):
        path = "temp/encoded_corpus.pt"
        id_path = "temp/encoded_corpus_ids.pt"
        if os.path.exists(path) and os.path.exists(id_path):
            if torch.load(id_path) == self.ids:
                self.features = torch.load(path)
                return
        self.features = self.model.encode(self.corpus)
        os.makedirs("temp", exist_ok=True)
        torch.save(self.features, path)
        torch.save(self.ids, id_path)


class Agent:
    def save_or_load_agent(self, checkpoint_path, if_save):
        for _ in range(2):
            if if_save:
                torch.save(self.state, checkpoint_path)
            else:
                self.state = torch.load(checkpoint_path)
