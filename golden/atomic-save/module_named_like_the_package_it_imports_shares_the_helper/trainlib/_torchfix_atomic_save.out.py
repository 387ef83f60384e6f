"""One atomic torch.save for the whole package: see atomic_save below.

Inserted by torchfix (atomic-save). The modules of this package that save
checkpoints import atomic_save from here instead of each defining its own.
"""

import os
import shutil
import tempfile
import typing

import torch


def atomic_save(
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
