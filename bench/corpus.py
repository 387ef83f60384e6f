"""A corpus of real PyTorch code from PyPI, fetched on demand into `.corpus/` (git-ignored).

    python bench/corpus.py                 # fetch and unpack every project
    python bench/corpus.py timm kornia     # just these

Versions are pinned so figures can be compared between runs. Nothing here is committed:
the archives and their code stay in the ignored cache folder.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / ".corpus"
ARCHIVES = ROOT / "archives"
SOURCES = ROOT / "src"

PROJECTS: dict[str, str] = {
    "accelerate": "1.15.0",
    "allennlp": "2.10.1",
    "cleanrl": "0.4.8",
    "d3rlpy": "2.8.1",
    "diffusers": "0.42.1",
    "fairseq": "0.12.2",
    "kornia": "0.9.0",
    "mmengine": "0.10.7",
    "monai": "1.6.1",
    "peft": "0.21.2",
    "pfrl": "0.4.0",
    "pytorch-ignite": "0.5.5",
    "pytorch-lightning": "2.6.6",
    "rl-games": "1.6.5",
    "rsl-rl-lib": "5.5.1",
    "sb3-contrib": "2.9.2",
    "sentence-transformers": "6.2.0",
    "skrl": "2.1.1",
    "stable-baselines3": "2.9.2",
    "tianshou": "2.0.1",
    "timm": "1.0.31",
    "torchtune": "0.6.1",
    "transformers": "5.23.0",
    "trl": "1.16.0",
    "ultralytics": "8.4.190",
}


def ensure(projects: Iterable[str]) -> dict[str, Path]:
    """Fetch (once) and unpack each project; return its source folder."""
    folders = {}
    for name in projects:
        if name not in PROJECTS:
            raise SystemExit(f"unknown corpus project '{name}'; known: {', '.join(PROJECTS)}")
        folder = SOURCES / name
        if not folder.is_dir():
            _unpack(_download(name, PROJECTS[name]), folder)
        folders[name] = folder
    return folders


def python_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*.py") if path.is_file())


def _download(name: str, version: str) -> Path:
    ARCHIVES.mkdir(parents=True, exist_ok=True)
    normalized = name.replace("-", "_").lower()
    for archive in ARCHIVES.iterdir():
        stem = archive.name.lower().replace("-", "_")
        if stem.startswith(f"{normalized}_{version}") or stem.startswith(f"{normalized}-{version}"):
            return archive
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
         "--dest", str(ARCHIVES), f"{name}=={version}"],
        check=True,
    )
    return _download(name, version)


def _unpack(archive: Path, folder: Path) -> None:
    partial = folder.with_name(folder.name + ".partial")
    partial.mkdir(parents=True, exist_ok=True)
    if archive.suffix in (".whl", ".zip"):
        with zipfile.ZipFile(archive) as bundle:
            bundle.extractall(partial)
    else:
        with tarfile.open(archive) as bundle:
            bundle.extractall(partial, filter="data")
    partial.rename(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="*", default=list(PROJECTS))
    args = parser.parse_args()
    for name, folder in ensure(args.projects).items():
        print(f"{name:24} {len(python_files(folder)):6} files  {folder}")


if __name__ == "__main__":
    main()
