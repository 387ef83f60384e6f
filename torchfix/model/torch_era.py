"""The torch that was current when a project's metadata was last written.

A project that names torch without a version (`torch` in requirements.txt) runs the torch
its users installed, which for a release left as it was years ago is the torch of its day:
pytorch-sconce 1.4.0 (September 2021, round 48) lists `torch` bare and was written for
torch 1.6-1.9, where `torch.amp.autocast("cuda")` (1.10+) is an AttributeError;
chainer-pytorch-migration 0.0.2 (2020, round 47) likewise, where
`torch.utils.data.default_collate` (1.11) does not exist. Both reviewers called the safe
fixes wrong. The date is the newest modification time of the metadata files at the root
(`setup.py`, `setup.cfg`, `pyproject.toml`, `requirements*.txt`, `PKG-INFO`): an sdist
keeps the times its files had when it was built, while a fresh clone or checkout gets
today's, so a project someone works on now is read as current. torchfix never writes these
files, so its own edits never move the date.
"""

from __future__ import annotations

import contextlib
import datetime
import os
from dataclasses import dataclass
from pathlib import Path

Version = tuple[int, int]
Month = tuple[int, int]  # (year, month)

# The month each torch release came out, oldest first (pytorch.org release notes).
TORCH_RELEASES: tuple[tuple[Version, Month], ...] = (
    ((1, 0), (2018, 12)), ((1, 1), (2019, 5)), ((1, 2), (2019, 8)), ((1, 3), (2019, 10)),
    ((1, 4), (2020, 1)), ((1, 5), (2020, 4)), ((1, 6), (2020, 7)), ((1, 7), (2020, 10)),
    ((1, 8), (2021, 3)), ((1, 9), (2021, 6)), ((1, 10), (2021, 10)), ((1, 11), (2022, 3)),
    ((1, 12), (2022, 6)), ((1, 13), (2022, 10)), ((2, 0), (2023, 3)),
)
# From torch 2.0's release on, a project naming torch bare is taken to run any torch 2
# (`UNDECLARED_FLOOR`): the era says nothing more.
_MODERN: Month = TORCH_RELEASES[-1][1]

METADATA_FILES = ("setup.py", "setup.cfg", "pyproject.toml", "PKG-INFO")


@dataclass(frozen=True)
class TorchEra:
    """The torch current when the project's metadata was last changed, and when that was."""

    torch: Version
    month: Month
    source: str  # the metadata file with the newest modification time

    @property
    def month_text(self) -> str:
        return f"{self.month[0]}-{self.month[1]:02d}"


def find_torch_era(root: Path) -> TorchEra | None:
    """The torch release current in the month the newest of the root's metadata files was
    last modified, where that month predates torch 2.0; None where it does not, or where
    the root has no metadata file."""
    newest: tuple[float, str] | None = None
    for path in _metadata_paths(root):
        try:
            modified = os.stat(path).st_mtime
        except OSError:
            continue
        if newest is None or modified > newest[0]:
            newest = (modified, path.name)
    if newest is None:
        return None
    when = datetime.datetime.fromtimestamp(newest[0], tz=datetime.timezone.utc)
    month = (when.year, when.month)
    if month >= _MODERN:
        return None
    current = TORCH_RELEASES[0][0]
    for version, released in TORCH_RELEASES:
        if released <= month:
            current = version
    return TorchEra(current, month, newest[1])


def _metadata_paths(root: Path) -> list[Path]:
    paths = [root / name for name in METADATA_FILES]
    with contextlib.suppress(OSError):
        paths += sorted(root.glob("requirements*.txt"))
    return [path for path in paths if path.is_file()]
