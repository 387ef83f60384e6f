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

Fixes may rely on the torch released at least `LAG_MONTHS` before that date, not the one
current in its month: a release's code was written over the months before it, against the
torch its author had installed, and its users install it beside the torch they have.
torchiva 0.1.1 (November 2022, torch bare, round 55) got `weights_only=True` (torch 1.13,
out four weeks before); its reviewer called it wrong, the code running on torch 1.8.
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
    ((0, 1), (2017, 1)), ((0, 2), (2017, 8)), ((0, 3), (2017, 12)), ((0, 4), (2018, 4)),
    ((1, 0), (2018, 12)), ((1, 1), (2019, 5)), ((1, 2), (2019, 8)), ((1, 3), (2019, 10)),
    ((1, 4), (2020, 1)), ((1, 5), (2020, 4)), ((1, 6), (2020, 7)), ((1, 7), (2020, 10)),
    ((1, 8), (2021, 3)), ((1, 9), (2021, 6)), ((1, 10), (2021, 10)), ((1, 11), (2022, 3)),
    ((1, 12), (2022, 6)), ((1, 13), (2022, 10)), ((2, 0), (2023, 3)),
)
# From torch 2.0's release on, a project naming torch bare is taken to run any torch 2
# (`UNDECLARED_FLOOR`): the era says nothing more.
_MODERN: Month = TORCH_RELEASES[-1][1]
LAG_MONTHS = 6

METADATA_FILES = ("setup.py", "setup.cfg", "pyproject.toml", "PKG-INFO")


@dataclass(frozen=True)
class TorchEra:
    """The torch current when the project's metadata was last changed, when that was, and
    the torch fixes may rely on (`LAG_MONTHS` older)."""

    torch: Version  # the newest release at least LAG_MONTHS older than `month`
    month: Month
    source: str  # the metadata file with the newest modification time
    current: Version  # the release current in `month`

    @property
    def month_text(self) -> str:
        return f"{self.month[0]}-{self.month[1]:02d}"


def find_torch_era(root: Path) -> TorchEra | None:
    """The torch of the month the newest of the root's metadata files was last modified,
    where that month predates torch 2.0; None where it does not, or where the root has
    no metadata file."""
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
    months = month[0] * 12 + month[1] - 1 - LAG_MONTHS
    return TorchEra(_released_by((months // 12, months % 12 + 1)), month, newest[1],
                    _released_by(month))


def _released_by(month: Month) -> Version:
    """The newest torch released in or before `month` (0.1 before any was)."""
    current = TORCH_RELEASES[0][0]
    for version, released in TORCH_RELEASES:
        if released <= month:
            current = version
    return current


def _metadata_paths(root: Path) -> list[Path]:
    paths = [root / name for name in METADATA_FILES]
    with contextlib.suppress(OSError):
        paths += sorted(root.glob("requirements*.txt"))
    return [path for path in paths if path.is_file()]
