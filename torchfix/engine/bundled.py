"""Packages an unpacked sdist or wheel carries for another project.

A wheel can ship a copy of another project's package beside its own (vissl 0.1.6 carries
classy_vision 0.7.0.dev and fairscale 0.3.7): that code belongs to the other project,
and its maintainers, not this one's, would take a fix. Such a copy says so by carrying
its own `__version__`, different from the version the distribution's metadata gives, or
by being named as a package the distribution requires.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

# The metadata of an unpacked sdist (`PKG-INFO`) or wheel (`<name>.dist-info/METADATA`).
_METADATA_FIELD = re.compile(r"^(Name|Version):\s*(\S+)\s*$", re.MULTILINE)
_INIT_MAX_BYTES = 65536  # a package's `__init__.py` that large is read no further


def normalized(name: str) -> str:
    """PEP 503's name, with `_` for the separators: "pytorch-pfn.extras" → "pytorch_pfn_extras"."""
    return re.sub(r"[-_.]+", "_", name).lower()


def distribution_metadata(folder: Path, entries: list[os.DirEntry[str]]) -> tuple[str, str] | None:
    """(name, version) of the sdist or wheel unpacked in `folder`; None if it is not one
    (no `PKG-INFO` or `*.dist-info`) or is a git checkout."""
    names = {entry.name for entry in entries}
    if ".git" in names:
        return None
    candidates = [folder / "PKG-INFO"] if "PKG-INFO" in names else []
    candidates += [folder / name / "METADATA" for name in sorted(names)
                   if name.endswith(".dist-info")]
    for path in candidates:
        try:
            head = path.read_text(encoding="utf-8", errors="replace")[:8192]
        except OSError:
            continue
        fields = dict(match.groups() for match in _METADATA_FIELD.finditer(head))
        if "Name" in fields and "Version" in fields:
            return fields["Name"], fields["Version"]
    return None


def bundled_packages(folder: Path, entries: list[os.DirEntry[str]]) -> dict[str, str]:
    """The packages of the distribution unpacked in `folder` that are copies of other
    projects, by folder name, each with the note that says why."""
    metadata = distribution_metadata(folder, entries)
    if metadata is None:
        return {}
    name, version = metadata
    found: dict[str, str] = {}
    versioned: dict[str, str] = {}  # copies by their own __version__ (see the end)
    own_package = False
    required = _required_import_names(folder)
    for entry in entries:
        folder_name = normalized(entry.name)
        if not entry.is_dir(follow_symlinks=False):
            continue
        # the distribution's own package: `vbpr/` of vbpr-pytorch, whatever version its
        # `__init__.py` forgot to bump (round 38), optimum-intel's namespace `optimum/`
        if normalized(name) == folder_name or normalized(name).startswith(folder_name + "_"):
            own_package = True
            continue
        dependency = required.get(folder_name)
        if dependency is not None:
            found[entry.name] = (
                f"a copy of {dependency}, which {name} requires, bundled in its "
                f"distribution; not processed: fix it upstream, or name the folder to "
                "process it")
            continue
        own_version = _package_version(Path(entry.path) / "__init__.py")
        if own_version is not None and own_version.lstrip("vV") != version.lstrip("vV"):
            versioned[entry.name] = (
                f"a copy of another project bundled in {name} {version} (its own "
                f"__version__ is {own_version}); not processed: fix it upstream, or name "
                "the folder to process it")
        elif own_version is not None:
            own_package = True
    # A version of its own says "copy" only beside the distribution's own package: the
    # one package of pytorch-dml 1.1.0, `pydml` at 0.x, is its own (round 38).
    return {**found, **versioned} if own_package else found


# PyTorch's own packages, beside `torch/` in its wheel (caffe2 up to torch 2.x: torch-abi,
# a repackaged torch 1.13 wheel, round 46).
TORCH_SIBLINGS = ("functorch", "torchgen", "caffe2")
TORCH_ITSELF = ("the torch package itself (PyTorch, a repackaged wheel, or a copy of its "
                "API): its torch names are its own, not uses of torch; not processed: fix "
                "it upstream, or name the folder to process it")


def torch_itself(folder: Path, entries: list[os.DirEntry[str]]) -> dict[str, str]:
    """The folders of `folder` that are the `torch` package itself (a `torch/` holding an
    `__init__.py`) and, beside it, PyTorch's other packages (`functorch/`, `torchgen/`),
    each with the note that says why they are passed over. torchfix changes code that
    uses torch: in torch's own code `torch.save` or `torch.where` is whatever that code
    defines (torch-pyodide's browser reimplementation, round 44; accelana-torch-runtime,
    a repackaged torch 2.14 wheel whose 31 fixes round 45's reviewer read as noise or
    wrong, three of them breaking `import torch`)."""
    names = {entry.name: entry for entry in entries}
    package = names.get("torch")
    if package is None or not package.is_dir(follow_symlinks=False) or \
            not (Path(package.path) / "__init__.py").is_file():
        return {}
    return {name: TORCH_ITSELF for name in ("torch", *TORCH_SIBLINGS)
            if name in names and names[name].is_dir(follow_symlinks=False)}


def _required_import_names(folder: Path) -> dict[str, str]:
    """The packages the distributions that the project in `folder` requires are imported
    as, normalized, each with the requirement's name: `bootstrap.pytorch` is imported as
    `bootstrap`, `block.bootstrap.pytorch` as `block` (murel.bootstrap.pytorch's sdist
    carries both folders, which its `find_packages(exclude=[...])` meant to leave out and
    its repository ignores: round 37's reviewer read every fix there as noise or wrong).
    A dotted name's first part is its namespace package."""
    from torchfix.model.torch_floor import declared_requirement_names

    names: dict[str, str] = {}
    for requirement in sorted(declared_requirement_names(folder)):
        names.setdefault(normalized(requirement), requirement)
        if "." in requirement:
            names.setdefault(normalized(requirement.split(".", 1)[0]), requirement)
    return names


def _package_version(init: Path) -> str | None:
    """The string a package's `__init__.py` assigns to `__version__` at module level."""
    try:
        with init.open("rb") as handle:
            source = handle.read(_INIT_MAX_BYTES)
        tree = ast.parse(source)
    except (OSError, SyntaxError, ValueError):
        return None
    for statement in tree.body:
        if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and statement.targets[0].id == "__version__"
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)):
            return statement.value.value
    return None
