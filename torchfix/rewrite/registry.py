"""The codemods this installation knows, and the selection of which ones run.

What the engine needs to choose codemods and to pass over a file (names, TorchFix codes,
byte triggers, on by default or not) comes from `codemods/manifest.py`, written from the
codemod classes by `python -m torchfix.rewrite.manifest` (a test fails when it is stale):
a file that holds none of a codemod's triggers never imports that codemod's module.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from types import ModuleType
from typing import TYPE_CHECKING

from torchfix import PROJECT_URL

if TYPE_CHECKING:
    from torchfix.rewrite.contract import Codemod

ALL_SELECTOR = "ALL"
# A TorchFix code or a prefix of one: letters, then digits ("TOR", "TOR1", "TOR102").
# Patterns, not compiled ones: `re` compiles each on first use (and keeps it), so a run
# that selects by name and meets no suppression comment never pays for them.
_CODE = r"[A-Z]+[0-9]*"
_CODE_PREFIX = r"[A-Z]+"


class UnknownCodemodError(ValueError):
    """A codemod name that no codemod has (a usage or configuration error)."""


class Entry:
    """A codemod as the manifest knows it; `load()` imports its class."""

    __slots__ = ("_class", "codes", "enabled_by_default", "name", "target", "triggers")

    def __init__(self, name: str, target: str, codes: tuple[str, ...],
                 triggers: tuple[bytes, ...], enabled_by_default: bool,
                 loaded: type[Codemod] | None = None) -> None:
        self.name = name
        self.target = target  # "module:Class", the module relative to the codemods package
        self.codes = codes
        self.triggers = triggers
        self.enabled_by_default = enabled_by_default
        self._class = loaded

    @classmethod
    def of(cls, codemod: type[Codemod]) -> Entry:
        """The entry of a codemod class (what the manifest records for it)."""
        return cls(codemod.name, f"{codemod.__module__}:{codemod.__qualname__}",
                   tuple(getattr(codemod, "codes", ())), tuple(codemod.triggers),
                   bool(codemod.enabled_by_default), codemod)

    def load(self) -> type[Codemod]:
        if self._class is None:
            module, _, attribute = self.target.partition(":")
            package = codemods_package()
            imported = importlib.import_module(module, package.__name__)
            self._class = getattr(imported, attribute)
        return self._class

    def __repr__(self) -> str:
        return f"Entry({self.name!r}, {self.target!r})"


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


_entries: list[tuple[Entry, ...]] = []


def entries() -> tuple[Entry, ...]:
    """Every codemod's entry, in the fixed order in which they run on a file."""
    if not _entries:
        package = codemods_package()
        manifest = importlib.import_module(".manifest", package.__name__)
        _entries.append(tuple(Entry(*row) for row in manifest.MANIFEST))
    return _entries[0]


def all_codemods() -> tuple[type[Codemod], ...]:
    """Every codemod class, in run order (imports every codemod module)."""
    return tuple(entry.load() for entry in entries())


_by_name: list[tuple[tuple[Entry, ...], dict[str, Entry]]] = []


def entries_by_name() -> dict[str, Entry]:
    """Every codemod's entry by its name (made once per set of entries: the engine asks
    per file). Do not change the dict returned."""
    current = entries()
    if not _by_name or _by_name[0][0] is not current:
        _by_name[:] = [(current, {entry.name: entry for entry in current})]
    return _by_name[0][1]


def by_name() -> dict[str, type[Codemod]]:
    """Every codemod class by its name (imports every codemod module)."""
    return {name: entry.load() for name, entry in entries_by_name().items()}


def codes_of(codemod: type[Codemod] | Entry) -> tuple[str, ...]:
    """The TorchFix codes a codemod carries ("TOR102"); () for torchfix's own rules."""
    return tuple(getattr(codemod, "codes", ()))


def entries_by_code(selector: str) -> list[Entry]:
    if not re.fullmatch(_CODE, selector):
        return []
    return [e for e in entries() if any(code.startswith(selector) for code in e.codes)]


def by_code(selector: str) -> list[type[Codemod]]:
    """The codemods a TorchFix code stands for, in run order.

    As in TorchFix's `--select` (and flake8's `# noqa`), a code selects every rule whose
    code starts with it: `TOR102` one rule, `TOR1` the TOR1xx family, `TOR` all of them.
    """
    return [entry.load() for entry in entries_by_code(selector)]


def known_names() -> frozenset[str]:
    """Every name that may stand for a codemod in a selection or a suppression comment:
    the codemods' names, their TorchFix codes and the prefixes of those codes."""
    names = set(entries_by_name())
    for entry in entries():
        for code in entry.codes:
            prefix = re.match(_CODE_PREFIX, code)
            start = prefix.end() if prefix else len(code)
            names.update(code[:end] for end in range(start, len(code) + 1))
    return frozenset(names)


def expand(name: str) -> list[str]:
    """The codemod names `name` (a codemod's name or a TorchFix code) stands for; [] if
    none."""
    if name in entries_by_name():
        return [name]
    return [entry.name for entry in entries_by_code(name)]


def docs_url(name: str) -> str:
    """Where a codemod's documentation is on the web: its section of the README."""
    # GitHub's heading anchors: lower case, spaces to hyphens, other punctuation dropped.
    anchor = re.sub(r"[^\w\- ]", "", name.lower()).replace(" ", "-")
    return f"{PROJECT_URL}#{anchor}"


def load(name: str) -> type[Codemod]:
    """The class of the codemod called `name`, its module imported."""
    return entry(name).load()


def entry(name: str) -> Entry:
    """The entry of the codemod called `name`, or of the one codemod carrying the TorchFix
    code `name`."""
    known = entries_by_name()
    if name in known:
        return known[name]
    coded = [e for e in entries_by_code(name) if name in e.codes]
    if len(coded) == 1:
        return coded[0]
    if coded:
        raise UnknownCodemodError(f"'{name}' is the TorchFix code of several codemods: "
                                  f"{', '.join(e.name for e in coded)}; name one of them")
    raise UnknownCodemodError(_unknown_message(name, known))


def get(name: str) -> type[Codemod]:
    """The codemod class called `name` (or carrying the TorchFix code `name`)."""
    return entry(name).load()


def select_names(
    selected: Iterable[str] | None, ignored: Iterable[str] = ()
) -> tuple[str, ...]:
    """Resolve --select/--ignore names to codemod names, kept in their run order; no
    codemod module is imported.

    No selection means every codemod that is on by default; `ALL` means every codemod.
    """
    known = entries_by_name()
    ignored_names = set(_check_names(ignored, known))
    if selected is None:
        chosen = {name for name, entry in known.items() if entry.enabled_by_default}
    else:
        names = list(selected)
        chosen = set(known) if ALL_SELECTOR in names else set(_check_names(names, known))
    return tuple(
        entry.name for entry in entries()
        if entry.name in chosen and entry.name not in ignored_names
    )


def select(
    selected: Iterable[str] | None, ignored: Iterable[str] = ()
) -> tuple[type[Codemod], ...]:
    """`select_names`, as codemod classes."""
    known = entries_by_name()
    return tuple(known[name].load() for name in select_names(selected, ignored))


def _check_names(names: Iterable[str], known: dict[str, Entry]) -> list[str]:
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
    import difflib

    close = difflib.get_close_matches(name, list(known), n=1)
    hint = f"; did you mean '{close[0]}'?" if close else "; `torchfix list` shows them all"
    return f"unknown codemod '{name}'{hint}"
