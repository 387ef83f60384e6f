"""The project enables ruff's flake8-use-pathlib (PTH): the helper uses pathlib, not
os.path, os.replace or open()."""

import os
import pathlib
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
    path = pathlib.Path(f).resolve()  # through symlinks, like torch.save
    folder = path.parent
    name = pathlib.Path(os.fspath(f)).name  # the archive is named after it
    old = path.stat() if path.exists() else None
    in_place = not os.access(folder, os.W_OK | os.X_OK)
    if old is not None:  # a rename must give the same file: else, in place
        in_place = in_place or not path.is_file()
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
        tmp_path = pathlib.Path(tmp_folder) / name
        torch.save(obj, tmp_path, *args, **kwargs)
        with tmp_path.open("rb+") as tmp:
            os.fsync(tmp.fileno())  # on disk before the name points at it
        if old is not None:
            tmp_path.chmod(old.st_mode & 0o7777)
            if os.name == "posix":
                os.chown(tmp_path, -1, old.st_gid)
        tmp_path.replace(path)
    finally:
        shutil.rmtree(tmp_folder, ignore_errors=True)


def save_checkpoint(model, path):
    _torchfix_atomic_save(model.state_dict(), path)


def run_save_checkpoint(model, path):
    save_checkpoint(model, path)
