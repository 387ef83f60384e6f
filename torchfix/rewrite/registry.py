"""The codemods this installation knows, and the selection of which ones run."""

from __future__ import annotations

import difflib
import importlib
import re
from collections.abc import Iterable
from types import ModuleType

from torchfix import PROJECT_URL
from torchfix.rewrite.contract import Codemod

ALL_SELECTOR = "ALL"
# A TorchFix code or a prefix of one: letters, then digits ("TOR", "TOR1", "TOR102").
_CODE = re.compile(r"[A-Z]+[0-9]*")
_CODE_PREFIX = re.compile(r"[A-Z]+")


class UnknownCodemodError(ValueError):
    """A codemod name that no codemod has (a usage or configuration error)."""


def codemods_package() -> ModuleType:
    """The package of the codemods: `torchfix.codemods` in an installed wheel (which ships
    no other top-level package), the repository's top-level `codemods/` in a checkout or
    an editable install. The codemods import each other relatively, so they work as
    either."""
    try:
        return importlib.import_module("torchfix.codemods")
    except ModuleNotFoundError as exc:
        if exc.name != "torchfix.codemods":
            raise
    return importlib.import_module("codemods")


def all_codemods() -> tuple[type[Codemod], ...]:
    """Every codemod, in the fixed order in which they run on a file."""
    codemods: tuple[type[Codemod], ...] = codemods_package().CODEMODS
    return codemods


_by_name: list[tuple[tuple[type[Codemod], ...], dict[str, type[Codemod]]]] = []


def by_name() -> dict[str, type[Codemod]]:
    """Every codemod by its name (made once per set of codemods: the engine asks per file
    for every selected codemod). Do not change the dict returned."""
    codemods = all_codemods()
    if not _by_name or _by_name[0][0] is not codemods:
        _by_name[:] = [(codemods, {codemod.name: codemod for codemod in codemods})]
    return _by_name[0][1]


def codes_of(codemod: type[Codemod]) -> tuple[str, ...]:
    """The TorchFix codes a codemod carries ("TOR102"); () for torchfix's own rules."""
    return tuple(getattr(codemod, "codes", ()))


def by_code(selector: str) -> list[type[Codemod]]:
    """The codemods a TorchFix code stands for, in run order.

    As in TorchFix's `--select` (and flake8's `# noqa`), a code selects every rule whose
    code starts with it: `TOR102` one rule, `TOR1` the TOR1xx family, `TOR` all of them.
    """
    if not _CODE.fullmatch(selector):
        return []
    return [c for c in all_codemods() if any(code.startswith(selector) for code in codes_of(c))]


def known_names() -> frozenset[str]:
    """Every name that may stand for a codemod in a selection or a suppression comment:
    the codemods' names, their TorchFix codes and the prefixes of those codes."""
    names = set(by_name())
    for codemod in all_codemods():
        for code in codes_of(codemod):
            prefix = _CODE_PREFIX.match(code)
            start = prefix.end() if prefix else len(code)
            names.update(code[:end] for end in range(start, len(code) + 1))
    return frozenset(names)


def expand(name: str) -> list[str]:
    """The codemod names `name` (a codemod's name or a TorchFix code) stands for; [] if
    none."""
    if name in by_name():
        return [name]
    return [codemod.name for codemod in by_code(name)]


def docs_url(name: str) -> str:
    """Where a codemod's documentation is on the web: its section of the README."""
    # GitHub's heading anchors: lower case, spaces to hyphens, other punctuation dropped.
    anchor = re.sub(r"[^\w\- ]", "", name.lower()).replace(" ", "-")
    return f"{PROJECT_URL}#{anchor}"


def get(name: str) -> type[Codemod]:
    """The codemod called `name`, or the one codemod carrying the TorchFix code `name`."""
    known = by_name()
    if name in known:
        return known[name]
    coded = [codemod for codemod in by_code(name) if name in codes_of(codemod)]
    if len(coded) == 1:
        return coded[0]
    if coded:
        raise UnknownCodemodError(f"'{name}' is the TorchFix code of several codemods: "
                                  f"{', '.join(c.name for c in coded)}; name one of them")
    raise UnknownCodemodError(_unknown_message(name, known))


def select(
    selected: Iterable[str] | None, ignored: Iterable[str] = ()
) -> tuple[type[Codemod], ...]:
    """Resolve --select/--ignore names to codemods, kept in their run order.

    No selection means every codemod that is on by default; `ALL` means every codemod.
    """
    known = by_name()
    ignored_names = set(_check_names(ignored, known))
    if selected is None:
        chosen = {name for name, codemod in known.items() if codemod.enabled_by_default}
    else:
        names = list(selected)
        chosen = set(known) if ALL_SELECTOR in names else set(_check_names(names, known))
    return tuple(
        codemod
        for codemod in all_codemods()
        if codemod.name in chosen and codemod.name not in ignored_names
    )


def _check_names(names: Iterable[str], known: dict[str, type[Codemod]]) -> list[str]:
    checked = []
    for name in names:
        if name == ALL_SELECTOR:
            checked.extend(known)
            continue
        expanded = expand(name)
        if not expanded:
            raise UnknownCodemodError(_unknown_message(name, known))
        checked.extend(expanded)
    return checked


def _unknown_message(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    hint = f"; did you mean '{close[0]}'?" if close else "; `torchfix list` shows them all"
    return f"unknown codemod '{name}'{hint}"
