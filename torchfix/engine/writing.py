"""Safe in-place writes: all or nothing, and nothing about the file but its text changes.

The new bytes go to a temporary file in the same folder, are flushed to disk, take the
original's permission bits, and replace the original with one atomic rename. A symlink is
written through (its target changes, the link stays). The bytes come from the engine
already in the file's own encoding, BOM and newline style.

A new file that a fix needs (`create_file`) appears complete or not at all, and never
replaces a file; `remove_file` takes it back.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

TEMP_SUFFIX = ".torchfix.tmp"


class WriteError(Exception):
    """A file could not be written; the message says why in a few words."""


def write_atomically(path: Path, expected: bytes, new: bytes, *,
                     within: Path | None = None) -> None:
    """Replace the contents of `path` with `new`, if it still holds `expected`.

    With `within`, refuse unless the file's real path (symlinks resolved) lies in that
    folder: the last check before a write, whatever the caller checked before.
    """
    target = Path(os.path.realpath(path))
    _refuse_outside(target, within, "written")
    try:
        current = target.read_bytes()
        status = target.stat()
    except FileNotFoundError as exc:
        raise WriteError("removed during the run; not written") from exc
    except OSError as exc:
        raise WriteError(f"cannot read before writing: {exc.strerror or exc}") from exc
    if current != expected:
        raise WriteError("changed on disk during the run; not written")
    # A file without write bits says "do not modify", even to root (who may write anyway).
    if not os.access(target, os.W_OK) or not status.st_mode & 0o222:
        raise WriteError("file is read-only; not written")

    handle, temp_name = _temp_file_beside(target)
    try:
        with os.fdopen(handle, "wb") as temp:
            temp.write(new)
            temp.flush()
            os.fsync(temp.fileno())
        os.chmod(temp_name, stat.S_IMODE(status.st_mode))
        _keep_owner(temp_name, status)
        os.replace(temp_name, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise WriteError(f"cannot write: {exc.strerror or exc}") from exc
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise


def _refuse_outside(target: Path, within: Path | None, verb: str) -> None:
    """The last check before touching a file, whatever the caller checked before: its
    real path (symlinks resolved) must lie in the folder `within`."""
    if within is not None and not target.is_relative_to(os.path.realpath(within)):
        raise WriteError(f"its real path {target} is outside the project root {within}; "
                         f"not {verb}")


def create_file(path: Path, new: bytes, *, within: Path | None = None) -> None:
    """Create `path` holding `new`, all at once, if there is no such file yet.

    The bytes go to a temporary file beside it, flushed to disk, which is then linked
    to the new name: the name appears with the complete contents or not at all, and a
    file that appeared meanwhile is never replaced. The mode is what the umask gives
    any new file. Where the filesystem cannot link, the name is claimed exclusively and
    written in place.
    """
    target = Path(os.path.abspath(path))
    _refuse_outside(Path(os.path.realpath(target.parent)) / target.name, within, "created")
    if os.path.lexists(target):
        raise WriteError("exists already; not created")
    handle, temp_name = _temp_file_beside(target)
    try:
        with os.fdopen(handle, "wb") as temp:
            temp.write(new)
            temp.flush()
            os.fsync(temp.fileno())
        os.chmod(temp_name, 0o666 & ~_umask())
        try:
            os.link(temp_name, target)
        except FileExistsError as exc:
            raise WriteError("exists already; not created") from exc
        except OSError:  # no hard links here (some network and FUSE filesystems)
            descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            with os.fdopen(descriptor, "wb") as out:
                out.write(new)
                out.flush()
                os.fsync(out.fileno())
    except FileExistsError as exc:
        raise WriteError("exists already; not created") from exc
    except OSError as exc:
        raise WriteError(f"cannot create: {exc.strerror or exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
    sync_folder(target.parent)


def remove_file(path: Path, expected: bytes, *, within: Path | None = None) -> None:
    """Remove `path` (a file torchfix created), if it still holds `expected`."""
    _refuse_outside(Path(os.path.realpath(path)), within, "removed")
    try:
        current = path.read_bytes()
    except FileNotFoundError as exc:
        raise WriteError("removed already") from exc
    except OSError as exc:
        raise WriteError(f"cannot read before removing: {exc.strerror or exc}") from exc
    if current != expected:
        raise WriteError("changed on disk; not removed")
    try:
        os.unlink(path)
    except OSError as exc:
        raise WriteError(f"cannot remove: {exc.strerror or exc}") from exc
    sync_folder(path.parent)


def _keep_owner(temp_name: str, status: os.stat_result) -> None:
    # The temp file belongs to whoever runs torchfix; give it back to the file's owner
    # where we may (as root, or when only the group differs and we belong to it).
    if hasattr(os, "chown") and (os.stat(temp_name).st_uid, os.stat(temp_name).st_gid) != (
        status.st_uid,
        status.st_gid,
    ):
        with contextlib.suppress(OSError):
            os.chown(temp_name, status.st_uid, status.st_gid)


def _temp_file_beside(target: Path) -> tuple[int, str]:
    try:
        return tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=TEMP_SUFFIX
        )
    except OSError as exc:
        raise WriteError(f"cannot create a temporary file beside it: "
                         f"{exc.strerror or exc}") from exc


def replace_file(path: Path, data: bytes) -> None:
    """Create or replace a file of torchfix's own (a run record) all at once, durably.

    Unlike `write_atomically` there is no expected content and no mode to keep; the
    folder is synced too, so the rename itself survives a crash. Raises OSError.
    """
    handle, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                         suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(handle, "wb") as temp:
            temp.write(data)
            temp.flush()
            os.fsync(temp.fileno())
        # mkstemp makes the file private; a record is as readable as any file the user makes.
        os.chmod(temp_name, 0o666 & ~_umask())
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (new names, renames) to disk, where the system allows it."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _umask() -> int:
    current = os.umask(0o022)  # the only way to read it is to set it; put it right back
    os.umask(current)
    return current
