"""The oldest torch a project says it supports, read from its own metadata.

A fix that needs a newer torch than that (`from torch.amp import custom_fwd` exists from
2.4) would be an ImportError for the project's users, so codemods report it instead.
Looked for at the project root: `pyproject.toml` (`[project]` dependencies and optional
dependencies, Poetry's `[tool.poetry.dependencies]`), `setup.cfg` `install_requires`,
`setup.py` `install_requires=[...]`, `requirements*.txt` (also in a `requirements/`
folder, the project's or its package's), conda environment files (`*environment*.yml` /
`.yaml`, `*conda*.yml`), an sdist's `PKG-INFO` or an unpacked wheel's
`*.dist-info/METADATA` (`Requires-Dist`, extras aside),
`*.egg-info/requires.txt` and what a README promises ("PyTorch 1.8+",
"torch >= 1.13"). Where several declare one, the lowest floor wins: the code has to run
on all of them. A README can only lower the floor below "a current torch", which is what
a project declaring nothing gets: reading it never makes a fix less safe.

Where nothing declares one, the project's own version checks say it
(`torchfix.model.version_guards`): code that compares `torch.__version__` with "1.10"
still runs on torch 1.9, so the floor is 1.9. A declared floor wins over them.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from torchfix.model.version_guards import find_guard_floor

if TYPE_CHECKING:
    from torchfix.model.scan_memo import ScanMemo

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

Version = tuple[int, int]

_NAME = re.compile(r"^\s*(?:torch|pytorch)(?![\w.-])\s*(?:\[[^\]]*\])?\s*(?P<spec>[^;#]*)",
                   re.IGNORECASE)
_CLAUSE = re.compile(r"(?P<op>===|==|~=|>=|<=|!=|>|<|=|\^)?\s*(?P<version>\d+(?:\.\d+)*)")
# A bare conda pin `pytorch=2.0` or `pytorch 2.0.*` has no operator: it means "==".
_FLOOR_OPERATORS = frozenset({"===", "==", "~=", ">=", ">", "=", "^", None})
_MAX_FILE_BYTES = 1_000_000
# "PyTorch 1.8+", "PyTorch 2.1 or later", "torch >= 1.13", "`pytorch>=1.7`" in a README
# (segment-anything says the last in prose only).
# "PyTorch version >= 1.5.0" too (fairseq's README, its link `[PyTorch](url)` read as
# its text), and "PyTorch (>=1.10.0)" (dive-into-graphs, round 22).
_README_FLOOR = re.compile(
    r"\b(?:pytorch\s*(?:version\s*)?v?(?P<major>\d+)\.(?P<minor>\d+)(?:\.\d+)?\s*"
    r"(?:\+|or (?:later|higher|newer|above)|and (?:above|later|higher|newer))"
    r"|(?:py)?torch\s*(?:version\s*)?\(?\s*>=\s*(?P<major2>\d+)\.(?P<minor2>\d+))",
    re.IGNORECASE,
)
_MARKDOWN_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\s]*\)")
# "We developed AdverTorch under Python 3.6 and PyTorch 1.0.0 & 0.4.1" (advertorch, round
# 25), "tested with PyTorch 1.8.1": the versions the code was made on, the oldest of a
# list its floor; and a pinned install command, `pip3 install torch==1.8.1+cu111`
# (hear21passt, round 25); "tested with, `torch==1.10.1`" (tevatron, round 29).
_README_MADE_ON = re.compile(
    r"\b(?:developed|tested|built|written|verified|works|working|runs?)\b"
    r"(?:[^.\n]|\.(?=\d)){0,60}?"
    r"\b(?:py)?torch\s*(?:version\s*)?(?:==?\s*)?v?(?P<versions>\d+\.\d+(?:\.\d+)?"
    r"(?:\s*(?:&|and|,|/|or)\s*v?\d+\.\d+(?:\.\d+)?)*)"
    r"|\b(?:pip3?|conda)\s+install\b[^\n]*?\b(?:py)?torch\s*={1,2}\s*(?P<pinned>\d+\.\d+)",
    re.IGNORECASE,
)
# A README's badge: `![pytorch](https://img.shields.io/badge/pytorch-1.8~2.0-orange)`
# (mmcv 2.2.0, round 30), `badge/PyTorch-%3E%3D1.7-red`, `badge/pytorch-1.10+-blue`.
_README_BADGE = re.compile(
    r"shields\.io/badge/(?:py)?torch-(?:%3E%3D|>=|v)?(?P<major>\d+)\.(?P<minor>\d+)",
    re.IGNORECASE)
# What a setup.py tells a user who has no torch yet: pytorch-fast-transformers' "install
# your favorite version of PyTorch, we support 1.3.1, 1.5.0 and >=1.6" (round 30).
_SETUP_SUPPORTS = re.compile(
    r"\b(?:py)?torch\b[^.\n]{0,80}?\bsupports?\s+(?:(?:py)?torch\s+)?(?:>=\s*)?"
    r"v?(?P<versions>\d+\.\d+(?:\.\d+)?(?:\s*(?:&|and|,|/|or)\s*(?:>=\s*)?v?\d+\.\d+"
    r"(?:\.\d+)?)*)",
    re.IGNORECASE)
_VERSION = re.compile(r"(\d+)\.(\d+)")
# The torch release each torchvision and torchaudio release was built for (their
# compatibility tables): a project that pins only `torchaudio>=0.7.0` (hear21passt) runs
# on torch 1.7. Read only where nothing names torch itself.
_COMPANION_TORCH: dict[str, dict[Version, Version]] = {
    "torchvision": {(0, 3): (1, 1), (0, 4): (1, 2), (0, 5): (1, 4), (0, 6): (1, 5),
                    (0, 7): (1, 6), (0, 8): (1, 7), (0, 9): (1, 8), (0, 10): (1, 9),
                    (0, 11): (1, 10), (0, 12): (1, 11), (0, 13): (1, 12), (0, 14): (1, 13),
                    (0, 15): (2, 0), (0, 16): (2, 1), (0, 17): (2, 2), (0, 18): (2, 3),
                    (0, 19): (2, 4), (0, 20): (2, 5), (0, 21): (2, 6), (0, 22): (2, 7),
                    (0, 23): (2, 8)},
    "torchaudio": {(0, 3): (1, 2), (0, 4): (1, 4), (0, 5): (1, 5), (0, 6): (1, 6),
                   (0, 7): (1, 7), (0, 8): (1, 8), (0, 9): (1, 9), (0, 10): (1, 10),
                   (0, 11): (1, 11), (0, 12): (1, 12), (0, 13): (1, 13)},
}


@dataclass(frozen=True)
class TorchFloor:
    """The oldest torch a project declares it supports, and where it says so."""

    version: Version
    source: str  # the file (relative to the project root) that declared it, or the check
    # Only the Python floor says it: the newest torch that Python gets, a bound on the
    # floor rather than a floor (see `python_implied_floor`).
    python_implied: bool = False


def parse_floor(spec: str) -> Version | None:
    """The lowest torch version a requirement's version part admits: `==2.0.0` → (2, 0),
    `>=1.13,<3` → (1, 13), `^2.1` → (2, 1); None if it sets no lower bound."""
    floors: list[Version] = []
    for clause in spec.split(","):
        match = _CLAUSE.search(clause.strip())
        if match is None or match.group("op") not in _FLOOR_OPERATORS:
            continue
        numbers = [int(part) for part in match.group("version").split(".")]
        floors.append((numbers[0], numbers[1] if len(numbers) > 1 else 0))
    return max(floors) if floors else None


def _package_name(package: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*{re.escape(package)}(?![\w.-])\s*(?:\[[^\]]*\])?\s*(?P<spec>[^;#]*)",
                      re.IGNORECASE)


def parse_ceiling(spec: str, *, pins: bool = False) -> Version | None:
    """The first torch version an explicit upper bound of a requirement no longer admits,
    as (major, minor): `<2.2` → (2, 2), `<2.4.1` and `<=2.3.1` → (2, 5) and (2, 4); None
    where it sets none. A pin (`==2.0.0`, `~=2.1`) is not a bound on what the project
    can run: pins are bumped as a matter of course, a `<` says what it cannot run. With
    `pins` (a package's install requirements, which pip holds its users to), an exact
    pin `==1.9.0` is one: (1, 10)."""
    ceilings: list[Version] = []
    for clause in spec.split(","):
        match = _CLAUSE.search(clause.strip())
        if match is None:
            continue
        op = match.group("op")
        numbers = [int(part) for part in match.group("version").split(".")]
        major, minor = numbers[0], numbers[1] if len(numbers) > 1 else 0
        if op == "<":
            ceilings.append((major, minor + 1) if len(numbers) > 2 and any(numbers[2:])
                            else (major, minor))
        elif op == "<=" or (pins and op in ("==", "===") and "*" not in clause):
            ceilings.append((major, minor + 1))
    return min(ceilings) if ceilings else None


def find_torch_ceiling(root: Path) -> TorchFloor | None:
    """The lowest upper bound on torch the project's metadata files declare (`torch>=2.0,
    <2.2` → (2, 2), the first version it does not admit), with where; None where none
    bounds it."""
    found = []
    for source, requirement in _declared_requirements(root):
        match = _NAME.match(requirement)
        if match is None or match.group("spec").lstrip().startswith("@"):
            continue
        ceiling = parse_ceiling(match.group("spec").replace(" ", ","),
                                pins=_install_metadata(source))
        if ceiling is not None:
            found.append(TorchFloor(ceiling, source))
    return min(found, key=lambda ceiling: ceiling.version) if found else None


def _install_metadata(source: str) -> bool:
    """Whether the requirement comes from what `pip install` of the package reads
    (pyproject.toml, setup.py, setup.cfg, PKG-INFO, METADATA, an egg-info's requires.txt)
    rather than a requirements or conda file, whose pins are an environment's lock
    (torch-tensornet's `install_requires` carries its `torch==1.9.0`: round 44)."""
    name = source.rsplit("/", 1)[-1]
    return name in ("pyproject.toml", "setup.py", "setup.cfg", "PKG-INFO", "METADATA") or \
        source.endswith(".egg-info/requires.txt")


def requirement_floor(line: str, name: re.Pattern[str] = _NAME) -> Version | None:
    """The floor of one requirement line if it names torch (`torch>=2.1`, `pytorch=2.0`),
    or the package `name` matches."""
    match = name.match(line)
    if match is None:
        return None
    spec = match.group("spec")
    if spec.lstrip().startswith("@"):
        return None  # `torch @ https://.../torch-2.0.1+cu118-...whl`: a URL, not a version
    return parse_floor(spec.replace(" ", ","))


def find_torch_floor(root: Path, *, code: bool = True,
                     memo: ScanMemo | None = None) -> TorchFloor | None:
    """The lowest floor the project declares; with `code`, where it declares none, the
    lowest its own torch version checks show (source: "the torch version check at
    pkg/mod.py:12")."""
    found = [
        TorchFloor(version, source)
        for source, requirement in _requirements(root)
        if (version := requirement_floor(requirement)) is not None
    ]
    if not found:
        found = _companion_floors(root)
    if found:
        return min(found, key=lambda floor: floor.version)
    guard = find_guard_floor(root, memo) if code else None
    if guard is None:
        return None
    return TorchFloor(guard.version, f"the torch version check at {guard.path}:{guard.line}")


# The newest torch release that still installs on each Python: a project that declares
# no torch floor but supports Python 3.6 (medcam's `python_requires=">=3.6"`, round 27,
# its CI on torch 1.5) supports the torch its users on 3.6 can have, 1.10 at most.
_NEWEST_TORCH_FOR_PYTHON: dict[Version, Version] = {
    (2, 7): (1, 4), (3, 5): (1, 4), (3, 6): (1, 10), (3, 7): (1, 13), (3, 8): (2, 4),
    (3, 9): (2, 8),
}


def python_implied_floor(python: Version, source: str) -> TorchFloor | None:
    """The torch floor a project's Python floor implies where it declares no torch floor:
    the newest torch that installs on that Python (None for Python 3.10 and newer, which
    current torch supports)."""
    older = [newest for version, newest in _NEWEST_TORCH_FOR_PYTHON.items()
             if version >= python]
    if not older:
        return None
    torch = min(older)
    return TorchFloor(torch, f"{source} (Python {python[0]}.{python[1]}: torch "
                             f"{torch[0]}.{torch[1]} at most)", python_implied=True)


def _companion_floors(root: Path) -> list[TorchFloor]:
    """The torch floors that the project's torchvision and torchaudio floors imply
    (`torchaudio>=0.7.0`: torch 1.7), by their releases' compatibility tables; a release
    newer than the tables knows implies nothing."""
    found = []
    for package, table in _COMPANION_TORCH.items():
        floor = find_package_floor(root, package)
        if floor is not None and floor.version in table:
            found.append(TorchFloor(table[floor.version],
                                    f"{floor.source} ({package} {floor.version[0]}."
                                    f"{floor.version[1]} needs torch "
                                    f"{table[floor.version][0]}.{table[floor.version][1]})"))
    return found


def find_package_floor(root: Path, package: str) -> TorchFloor | None:
    """The oldest version of `package` (`torchvision`) the project declares it supports."""
    name = _package_name(package)
    found = [
        TorchFloor(version, source)
        for source, requirement in _requirements(root)
        if (version := requirement_floor(requirement, name)) is not None
    ]
    return min(found, key=lambda floor: floor.version) if found else None


# A requirement line names a package (`tqdm`, `numpy>=1.20`); comments, blank lines and
# pip options (`-r base.txt`, `--extra-index-url`) do not.
_REQUIREMENT = re.compile(r"^[A-Za-z0-9]")
# Packages whose presence says which torch a project runs (their floors imply one).
_TORCH_PACKAGES = re.compile(r"^\s*(?:py)?torch(?:vision|audio)?(?![\w.-])", re.IGNORECASE)


def find_dependencies_without_torch(root: Path) -> str | None:
    """The file that lists the project's dependencies where none of them is torch (nor
    torchvision or torchaudio); "" where no file lists any dependency; None where torch
    is listed.

    Such a project gets torch through a dependency (`transformers>=4.10.0`, which runs on
    torch 1.x) or from its users, so nothing says which torch it runs: tevatron (round 29)
    lists transformers and datasets only and was tested on torch 1.10.1; tape-proteins
    lists tqdm, scipy and boto3, and its repository pins torch 1.1.0. So does a project
    that lists no dependency at all: torchnn 0.1 (2022, round 45), whose setup.py names
    none, was read against the torch and torchvision of its day, v-diffusion-pytorch's
    (round 40) against torch 1.9-1.11."""
    first = ""
    for source, requirement in _declared_requirements(root):
        if _TORCH_PACKAGES.match(requirement):
            return None
        if not first and _REQUIREMENT.match(requirement) \
                and not requirement.lower().startswith(("python", "pip")):
            first = source
    return first


def _requirements(root: Path) -> Iterator[tuple[str, str]]:
    """(file, requirement string) for every dependency the project's metadata declares,
    and the torch floors its README promises."""
    yield from _declared_requirements(root)
    yield from _readme_requirements(root)


def declared_requirement_names(root: Path) -> set[str]:
    """The names of the distributions the project's metadata files require (`block.
    bootstrap.pytorch`, `opencv-python`), as written. Only strings that read as a
    requirement count, and setup.py's only in `install_requires` lists: its other strings
    may be extras' names (`"tests"`) or files (`"requirements/runtime.txt"`)."""
    listed = [requirement for file, requirement in _declared_requirements(root)
              if file != "setup.py"]
    tree = _setup_py_tree(root / "setup.py", "install_requires")
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.keyword) and node.arg == "install_requires" and \
                isinstance(node.value, ast.List | ast.Tuple):
            listed += [item.value for item in node.value.elts
                       if isinstance(item, ast.Constant) and isinstance(item.value, str)]
    return {match.group(1) for requirement in listed
            if (match := _REQUIREMENT_NAME.match(requirement.strip()))}


# A requirement's name, then its end, extras, a version, a marker or a URL.
_REQUIREMENT_NAME = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:$|[\[<>=!~;@(])")


def _declared_requirements(root: Path) -> Iterator[tuple[str, str]]:
    """(file, requirement string) for every dependency the project's metadata files list."""
    yield from _pyproject(root / "pyproject.toml")
    yield from _setup_cfg(root / "setup.cfg")
    yield from _setup_py(root / "setup.py")
    text_files = sorted(root.glob("requirements*.txt"))
    if (root / "requirements").is_dir():
        text_files += sorted((root / "requirements").glob("*.txt"))
    # A package's own folder of its components' requirements (deeppavlov's
    # `deeppavlov/requirements/pytorch.txt`: `torch>=1.6.0,<1.14.0`, round 33).
    text_files += sorted(root.glob("*/requirements/*.txt"))
    for path in text_files:
        for line in read_text(path).splitlines():
            yield relative_to(path, root), line.strip()
    # An sdist's or an unpacked wheel's metadata: what setup.py computed (its
    # install_requires may be built in code torchfix does not run). Extras are not the
    # project's floor.
    metadata = [root / "PKG-INFO", *sorted(root.glob("*.dist-info/METADATA"))]
    for path in metadata:
        for line in read_text(path).splitlines():
            if line.startswith("Requires-Dist:") and "extra ==" not in line:
                yield relative_to(path, root), line.removeprefix("Requires-Dist:").strip()
    # setuptools' egg-info beside the sources: requires.txt, whose extras follow
    # `[name]` section headers.
    for path in sorted(root.glob("*.egg-info/requires.txt")):
        for line in read_text(path).splitlines():
            if line.strip().startswith("["):
                break
            yield relative_to(path, root), line.strip()
    # `ffcv-conda.yml` too (ffcv, round 32: it pins the torch 1.9 its example runs on).
    conda_files = sorted({*root.glob("*environment*.y*ml"), *root.glob("*conda*.y*ml")})
    for path in conda_files:
        for line in read_text(path).splitlines():
            item = line.strip()
            if item.startswith("- "):
                yield relative_to(path, root), item[2:].strip().strip("'\"")


def _readme_requirements(root: Path) -> Iterator[tuple[str, str]]:
    """A `torch>=X.Y` requirement for each torch floor the project's README promises."""
    metadata = [root / "PKG-INFO", *sorted(root.glob("*.dist-info/METADATA"))]
    # What the README promises ("works with **PyTorch 1.8+**"), where no file pins it.
    # An unpacked wheel's or sdist's README is the body of its metadata (adapters 1.3.0:
    # "supports **Python 3.9+** and **PyTorch 2.0+**" in its METADATA, no README file).
    # Only the body: the headers above it list extras' requirements too.
    readmes = sorted(root.glob("README*")) or metadata
    for path in readmes:
        text = read_text(path)
        if path in metadata:
            text = text.partition("\n\n")[2]
        text = _MARKDOWN_LINK.sub(r"\1", text.replace("*", "").replace("`", ""))
        for match in _README_FLOOR.finditer(text):
            major = match.group("major") or match.group("major2")
            minor = match.group("minor") or match.group("minor2")
            yield relative_to(path, root), f"torch>={major}.{minor}"
        for match in _README_MADE_ON.finditer(text):
            listed = match.group("versions") or match.group("pinned")
            oldest = min((int(major), int(minor)) for major, minor in _VERSION.findall(listed))
            yield relative_to(path, root), f"torch>={oldest[0]}.{oldest[1]}"
        for match in _README_BADGE.finditer(read_text(path)):  # before links lose URLs
            yield relative_to(path, root), f"torch>={match.group('major')}.{match.group('minor')}"
    yield from _setup_py_prose(root / "setup.py")


def _setup_py_prose(path: Path) -> Iterator[tuple[str, str]]:
    """A `torch>=X.Y` requirement for the oldest torch a string of setup.py says the
    project supports ("we support 1.3.1, 1.5.0 and >=1.6" → 1.3)."""
    tree = _setup_py_tree(path, "support")
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            for match in _SETUP_SUPPORTS.finditer(node.value):
                oldest = min((int(major), int(minor))
                             for major, minor in _VERSION.findall(match.group("versions")))
                yield "setup.py", f"torch>={oldest[0]}.{oldest[1]}"


def read_text(path: Path) -> str:
    try:
        if not path.is_file() or path.stat().st_size > _MAX_FILE_BYTES:
            return ""
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def relative_to(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _pyproject(path: Path) -> Iterator[tuple[str, str]]:
    text = read_text(path)
    if "torch" not in text:
        return
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return
    project = document.get("project", {})
    if isinstance(project, dict):
        for requirement in project.get("dependencies", []) or []:
            if isinstance(requirement, str):
                yield "pyproject.toml", requirement
        extras = project.get("optional-dependencies", {})
        if isinstance(extras, dict):
            for requirements in extras.values():
                for requirement in requirements if isinstance(requirements, list) else []:
                    if isinstance(requirement, str):
                        yield "pyproject.toml", requirement
    # torch among the build requirements: a C++ extension builds against it, or the
    # project put its dependencies there (rethge-torch's `torch>=1.13.1`, round 58, whose
    # `torch.amp.GradScaler` fix, torch 2.3, its reviewer called wrong)
    build = document.get("build-system", {})
    requires = build.get("requires", []) if isinstance(build, dict) else []
    for requirement in requires if isinstance(requires, list) else []:
        if isinstance(requirement, str) and _TORCH_PACKAGES.match(requirement):
            yield "pyproject.toml", requirement
    poetry = document.get("tool", {}).get("poetry", {})
    dependencies = poetry.get("dependencies", {}) if isinstance(poetry, dict) else {}
    if isinstance(dependencies, dict):
        for name in ("torch", "pytorch"):
            value = dependencies.get(name)
            if isinstance(value, dict):
                value = value.get("version")
            if isinstance(value, str):
                yield "pyproject.toml", f"torch {value}"


def _setup_cfg(path: Path) -> Iterator[tuple[str, str]]:
    text = read_text(path)
    if "torch" not in text:
        return
    import configparser  # here: only projects with a setup.cfg need it

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return
    for section in parser.sections():
        for key in ("install_requires",):
            if parser.has_option(section, key):
                for line in parser.get(section, key).splitlines():
                    yield "setup.cfg", line.strip()
        if section == "options.extras_require":
            for _, value in parser.items(section):
                for line in value.splitlines():
                    yield "setup.cfg", line.strip()


def _setup_py_tree(path: Path, needle: str) -> ast.Module | None:
    """setup.py's tree where its text holds `needle`; None where it does not or does not
    parse. The requirements and the prose read one file: it is parsed once."""
    text = read_text(path)
    return _parsed(text) if needle in text else None


@functools.lru_cache(maxsize=2)
def _parsed(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None


def _setup_py(path: Path) -> Iterator[tuple[str, str]]:
    # neither install_requires nor extras_require: nothing to read
    tree = _setup_py_tree(path, "_require")
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.keyword) and node.arg in ("install_requires", "extras_require"):
            for constant in ast.walk(node.value):
                if isinstance(constant, ast.Constant) and isinstance(constant.value, str):
                    yield "setup.py", constant.value
