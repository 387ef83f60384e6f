# Files that protect nothing across runs are left alone (round 25): early stopping's best
# weights, saved and restored by the same training loop (lightautoml's L2X: a crash
# loses the run that would read them), and a cache in a `temp/` folder of the working
# folder, rebuilt when missing (cornac's encoded corpus). A file saved in one branch of an
# `if` and loaded in the other, where one run takes one branch only (no loop repeats the
# `if`, or its test reads only parameters: elegantrl's `save_or_load_agent(cwd,
# if_save)`), is read by a later run, and is rewritten.
import os
import shutil
import tempfile
import typing

import torch


def _torchfix_atomic_save(
    obj: object,
    f: typing.Any,
    *args: typing.Any,
    **kwargs: typing.Any,
) -> None:
    """torch.save that never leaves a truncated file at a path destination.

    Inserted by torchfix (atomic-save). torch.save writes a path in place,
    so a crash, an OOM kill or a preemption mid-write leaves a truncated
    file, often the only checkpoint. This saves into a temporary folder
    beside the destination, under the same file name (so the bytes are the
    ones torch.save writes), fsyncs the file and renames it over the
    destination: readers see the old file or the complete new one. A new
    file gets its permissions from the umask, as before; a replaced one
    keeps its mode and group. Buffers and open files, and paths that a
    rename cannot replace faithfully (read-only, hard-linked or foreign
    files, devices, folders this process cannot write), are written by
    torch.save in place, exactly as before.
    """
    if not isinstance(f, (str, os.PathLike)):
        torch.save(obj, f, *args, **kwargs)
        return
    path = os.path.realpath(f)  # through symlinks, like torch.save
    folder = os.path.dirname(path)
    name = os.path.basename(os.fspath(f))  # the archive is named after it
    old = os.stat(path) if os.path.exists(path) else None
    in_place = not os.access(folder, os.W_OK | os.X_OK)
    if old is not None:  # a rename must give the same file: else, in place
        in_place = in_place or not os.path.isfile(path)
        in_place = in_place or old.st_nlink != 1
        in_place = in_place or not os.access(path, os.W_OK)
        if os.name == "posix":
            groups = (os.getegid(), *os.getgroups())
            in_place = in_place or old.st_uid != os.geteuid()
            in_place = in_place or old.st_gid not in groups
    if in_place:
        torch.save(obj, f, *args, **kwargs)
        return
    prefix = f".{name}."
    tmp_folder = tempfile.mkdtemp(prefix=prefix, suffix=".tmp", dir=folder)
    try:
        tmp_path = os.path.join(tmp_folder, name)
        torch.save(obj, tmp_path, *args, **kwargs)
        with open(tmp_path, "rb+") as tmp:
            os.fsync(tmp.fileno())  # on disk before the name points at it
        if old is not None:
            os.chmod(tmp_path, old.st_mode & 0o7777)
            if os.name == "posix":
                os.chown(tmp_path, -1, old.st_gid)
        os.replace(tmp_path, path)
    finally:
        shutil.rmtree(tmp_folder, ignore_errors=True)


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
                _torchfix_atomic_save(self.state, checkpoint_path)
            else:
                self.state = torch.load(checkpoint_path)
