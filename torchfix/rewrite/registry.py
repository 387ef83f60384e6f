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


def by_name() -> dict[str, type[Codemod]]:
    return {codemod.name: codemod for codemod in all_codemods()}


def known_names() -> frozenset[str]:
    """Every name that may stand for a codemod in a selection or a suppression comment."""
    return frozenset(by_name())


def docs_url(name: str) -> str:
    """Where a codemod's documentation is on the web: its section of the README."""
    # GitHub's heading anchors: lower case, spaces to hyphens, other punctuation dropped.
    anchor = re.sub(r"[^\w\- ]", "", name.lower()).replace(" ", "-")
    return f"{PROJECT_URL}#{anchor}"


def get(name: str) -> type[Codemod]:
    known = by_name()
    if name not in known:
        raise UnknownCodemodError(_unknown_message(name, known))
    return known[name]


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
        elif name not in known:
            raise UnknownCodemodError(_unknown_message(name, known))
        else:
            checked.append(name)
    return checked


def _unknown_message(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    hint = f"; did you mean '{close[0]}'?" if close else "; `torchfix list` shows them all"
    return f"unknown codemod '{name}'{hint}"
