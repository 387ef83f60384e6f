"""Defaults of the git commands that the command line shows in its help (this module
imports nothing, so `--help` does not load git)."""

from pathlib import Path

DEFAULT_WORKDIR = Path("torchfix-batch")  # where `batch` clones repositories
DEFAULT_JOBS = 4  # repositories `batch` processes at once
DEFAULT_VERIFY_TIMEOUT_SECONDS = 600.0  # how long each --verify run may take
