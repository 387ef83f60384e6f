"""Which files hold tests, test helpers or example code, for codemods that treat them
apart (test code is left alone; example code is nobody's production run)."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable
from pathlib import PurePath

# `unit_tests` and the like: torchserve's `ts/torch_handler/unit_tests/models/` (round 30)
TEST_FOLDERS = frozenset({"test", "tests", "testing", "test_utils", "unit_tests", "unittests",
                          "integration_tests", "functional_tests"})
TEST_HELPER_FILES = frozenset({"conftest.py", "testing.py", "testing_utils.py", "test_utils.py"})


def below_working_folder(path: str | os.PathLike[str]) -> PurePath:
    """The path relative to the working folder, where the file lies below it; else its
    absolute path, to be judged whole. The folders above the working folder say nothing
    of the file: a project checked out under `~/test/` is not all tests."""
    absolute = PurePath(os.path.abspath(path))
    with contextlib.suppress(ValueError):
        return absolute.relative_to(os.getcwd())
    return absolute


def is_test_path(path: str | os.PathLike[str] | None) -> bool:
    """Whether the file holds tests or test helpers, judged below the working folder.

    Folders above the working folder do not count: a project checked out under
    `~/test/` is not all tests.
    """
    if not path:
        return False
    relative = below_working_folder(path)
    name = relative.name
    return (
        name.startswith("test_")
        or name.endswith("_test.py")
        or name in TEST_HELPER_FILES
        or any(folder in TEST_FOLDERS for folder in relative.parts[:-1])
    )


# Folders and file names of example code: demos, tutorials, notebooks exported as scripts.
EXAMPLE_FOLDERS = frozenset(
    {"demo", "demos", "doc", "docs", "example", "examples", "notebook", "notebooks",
     "tutorial", "tutorials",
     # the scripts that reproduced a paper's figures, kept as they ran (cellpose's
     # `paper/1.0/`): nobody runs them under python -O either
     "paper", "papers"}
)
# Words that start (or, but for "example", end) the name of an example script.
EXAMPLE_WORDS = frozenset({"demo", "example", "tutorial"})
# Cell markers of notebooks kept as scripts (jupytext's percent format, nbconvert, Databricks).
_NOTEBOOK_CELL = re.compile(r"^# (?:%%|In\[[ \d]*\]:|COMMAND -{5,})", re.MULTILINE)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def identifier_words(identifier: str) -> list[str]:
    """`tmpCkpt_path` → ["tmp", "ckpt", "path"]."""
    return [word.lower() for part in identifier.split("_") for word in _WORD.findall(part)]


def is_example_code(path: str | os.PathLike[str] | None, text: str) -> bool:
    """Whether the file is example code: below a folder such as `examples/`, `demos/`,
    `tutorials/`, `notebooks/` or `docs/` (judged below the working folder, like test
    code; `paper/` too; also `<project>_examples/`), named like `demo_*.py`,
    `example_*.py` or `*_tutorial.py`, or a notebook kept as a script (`# %%` or
    `# In[1]:` cells)."""
    relative = below_working_folder(path) if path else PurePath()
    words = identifier_words(relative.stem)
    return (
        any(folder.lower() in EXAMPLE_FOLDERS for folder in relative.parts[:-1])
        # a project's own examples folder, `fastmri_examples/` (round 27)
        or any(identifier_words(folder)[-1:] in (["examples"], ["demos"], ["tutorials"])
               for folder in relative.parts[:-1])
        or (bool(words) and words[0] in EXAMPLE_WORDS)  # demo_train.py, example_mnist.py
        or (bool(words) and words[-1] in EXAMPLE_WORDS - {"example"})  # gan_demo.py
        or bool(_NOTEBOOK_CELL.search(text))
    )


# Folders and file names of speed benchmarks (`benchmarks/bench_all_ops.py`).
BENCHMARK_FOLDERS = frozenset({"benchmark", "benchmarks", "bench", "benches"})


def is_benchmark_path(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """Whether the file is a speed benchmark: below a `benchmark(s)/` or `bench/` folder
    of the project at `root`, or named `bench_*.py`, `benchmark*.py`, `*_bench.py` or
    `*_benchmark.py`."""
    try:
        parts = PurePath(path).relative_to(root).parts
    except ValueError:
        parts = PurePath(path).parts[-1:]
    stem = parts[-1].removesuffix(".py") if parts else ""
    return bool(BENCHMARK_FOLDERS & set(parts[:-1])) or stem.startswith(
        ("bench_", "benchmark")) or stem.endswith(("_bench", "_benchmark"))


# What the head of a module says where its code was copied from another project, to be
# kept in step with it: "This file contains code copied from the DeepSeek-V3.2-Exp
# project", "Differences from https://huggingface.co/moonshotai/Kimi-K3" (llmcompressor's
# model copies, round 17), "vendored from". Not "adapted from" or "based on": those files
# are the project's own now.
# torchcfm's "Logger copied from OpenAI baselines ..." says it too (round 19). A bare
# "From https://..." does not: most such files adapt the code (pykale, f5-tts: their
# converted checks were judged correct).
_COPIED_CODE = re.compile(
    r"\b(?:code|file|module) (?:is |was )?copied (?:verbatim )?from\b|^\W*copied from\b"
    r"|^\W*\w+ (?:is |was )?copied from\b"
    r"|\bvendored from\b|\bdifferences from https?://", re.IGNORECASE | re.MULTILINE)
COPIED_HEAD_LINES = 40


# Folders that hold another project's code as copied, to be kept in step with it: a
# backport of a newer release (brevitas' `backport/fx/`, a copy of torch.fx: round 21) or
# a vendored copy. Not `third_party/`: projects keep their own adapted code there too
# (llamafactory's Muon, whose converted checks were judged correct).
VENDORED_FOLDERS = frozenset({"backport", "backports", "_vendor", "vendored", "_vendored"})


def is_vendored_path(path: str | os.PathLike[str]) -> bool:
    """Whether the module lies below a folder of copied code (`VENDORED_FOLDERS`)."""
    return any(part.lower() in VENDORED_FOLDERS
               for part in below_working_folder(path).parts[:-1])


# Folders that hold code of other projects, copied or patched (marllib's `patch/`): a
# module below one that repeats another package's folders is that package's copy.
COPY_HOLDER_FOLDERS = frozenset({"patch", "patches", "third_party", "thirdparty", "external",
                                 "externals", "extern", "vendor", "vendors"})


def mirrored_module(path: str | os.PathLike[str], own_package: str,
                    imported: Iterable[str]) -> str | None:
    """The module of another package that the module's folders repeat, where the module
    lies in a folder path that another package's modules it imports also lie in: its last
    two folders, in order, inside a module name it imports from outside `own_package`
    (marllib's `marllib/patch/rllib/policy/torch_policy.py`, importing
    `ray.rllib.policy.policy`: a copy of ray's module, patched over the installed one),
    below a folder that holds others' code (`COPY_HOLDER_FOLDERS`). Both are needed:
    pyro's own `pyro/distributions/transforms/` imports `torch.distributions.transforms`,
    and `third_party/` holds projects' adapted code too. Two folders matched, not one (a
    project's `patch/models/` importing `torchvision.models` is its own code). None where
    there is none."""
    folders = below_working_folder(path).parts[:-1]
    if len(folders) < 3 or not any(folder.lower() in COPY_HOLDER_FOLDERS
                                   for folder in folders[:-2]):
        return None
    pair = [folder.lower() for folder in folders[-2:]]
    for name in imported:
        parts = name.split(".")
        if parts[0] == own_package:
            continue
        lowered = [part.lower() for part in parts]
        if any(lowered[index:index + 2] == pair for index in range(len(lowered) - 1)):
            return name
    return None


def is_copied_code(text: str) -> bool:
    """Whether the module says at its head (its first `COPIED_HEAD_LINES` lines) that its
    code is copied from another project, whose form it keeps."""
    head = "\n".join(text.splitlines()[:COPIED_HEAD_LINES])
    return _COPIED_CODE.search(head) is not None
