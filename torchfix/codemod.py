"""The codemod contract: what every module in `codemods/` declares, and how it records edits.

A codemod is a libcst `VisitorBasedCodemodCommand` that also declares a stable `name`,
a one-line `summary`, the byte strings it can act on (`triggers`) and its `options`.
Every edit goes through `fix()` (or `report()` for findings with no automatic fix), which
applies safety gating and suppression comments and records a `Change`, so that no codemod
has to know how its results are shown or written.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Generator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, TypeVar

import libcst as cst
from libcst.codemod import CodemodContext, VisitorBasedCodemodCommand
from libcst.metadata import MetadataWrapper, PositionProvider

from torchfix.suppressions import Suppressions

NodeT = TypeVar("NodeT", bound=cst.CSTNode)


class Safety(str, enum.Enum):
    """How much a change can be trusted without a human reading it."""

    SAFE = "safe"  # applied by default
    UNSAFE = "unsafe"  # applied only with --unsafe-fixes; otherwise reported
    MANUAL = "manual"  # reported only: no automatic fix exists


@dataclass(frozen=True)
class Change:
    """One edit (applied or not) or finding made by one codemod at one place."""

    codemod: str
    line: int  # 1-based, in the file as it was read
    column: int  # 1-based
    message: str
    safety: Safety
    applied: bool


@dataclass(frozen=True)
class Option:
    """A codemod setting readable from `[tool.torchfix.<codemod>]`."""

    name: str  # kebab-case key used in configuration
    default: bool | int | float | str
    help: str


@dataclass(frozen=True)
class CodemodSettings:
    """What a codemod instance needs to know about the current run."""

    unsafe_fixes: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    suppressions: Suppressions = field(default_factory=Suppressions)
    # True when the tree comes straight from the parser, so every node is unique and the
    # defensive deep copy libcst makes before computing metadata can be skipped.
    fresh_tree: bool = False


class TorchfixCodemod(VisitorBasedCodemodCommand):
    """Base class of every torchfix codemod. Subclasses set the class attributes below."""

    name: ClassVar[str]
    summary: ClassVar[str]
    triggers: ClassVar[tuple[bytes, ...]]
    # What `torchfix list` shows: "safe", "unsafe" or "safe, unsafe".
    fix_safety: ClassVar[str] = "safe"
    enabled_by_default: ClassVar[bool] = True
    options: ClassVar[tuple[Option, ...]] = ()

    METADATA_DEPENDENCIES: ClassVar[tuple[Any, ...]] = (PositionProvider,)

    def __init__(self, context: CodemodContext, settings: CodemodSettings | None = None) -> None:
        super().__init__(context)
        self.settings = settings or CodemodSettings()
        self.changes: list[Change] = []

    # -- options -------------------------------------------------------------------------

    @classmethod
    def option_defaults(cls) -> dict[str, Any]:
        return {option.name: option.default for option in cls.options}

    def option(self, name: str) -> Any:
        if name in self.settings.options:
            return self.settings.options[name]
        return self.option_defaults()[name]

    # -- recording edits -----------------------------------------------------------------

    def would_apply(self, node: cst.CSTNode, safety: Safety) -> bool:
        """Whether an edit of `node` with this safety is applied in this run."""
        if safety is Safety.MANUAL or self.is_suppressed(node):
            return False
        return safety is Safety.SAFE or self.settings.unsafe_fixes

    def fix(
        self,
        original: cst.CSTNode,
        updated: NodeT,
        replacement: Any,
        message: str,
        safety: Safety = Safety.SAFE,
        on_apply: Callable[[], None] | None = None,
    ) -> Any:
        """Record a change and return `replacement` when it applies, else `updated`.

        `original` is the node as it appears in the tree being transformed (it locates the
        change and its suppression comments); `on_apply` runs only when the change is
        applied, e.g. to schedule the imports the replacement needs.
        """
        if self.is_suppressed(original):
            return updated
        applied = self.would_apply(original, safety)
        self._record(original, message, safety, applied)
        if not applied:
            return updated
        if on_apply is not None:
            on_apply()
        return replacement

    def report(self, node: cst.CSTNode, message: str) -> None:
        """Record a finding that has no automatic fix."""
        if not self.is_suppressed(node):
            self._record(node, message, Safety.MANUAL, applied=False)

    def is_suppressed(self, node: cst.CSTNode) -> bool:
        if not self.settings.suppressions:
            return False
        position = self.get_metadata(PositionProvider, node)
        return self.settings.suppressions.suppresses(
            self.name, position.start.line, position.end.line
        )

    def _record(self, node: cst.CSTNode, message: str, safety: Safety, applied: bool) -> None:
        position = self.get_metadata(PositionProvider, node).start
        self.changes.append(
            Change(self.name, position.line, position.column + 1, message, safety, applied)
        )

    # -- libcst plumbing -----------------------------------------------------------------

    @contextmanager
    def _handle_metadata_reference(self, module: cst.Module) -> Generator[cst.Module, None, None]:
        # Same as libcst's, minus the deep copy of the whole tree when the tree is fresh
        # from the parser: the copy only guards against nodes shared between two places,
        # which a parsed tree never has, and it costs as much as parsing the file again.
        wrapper = MetadataWrapper(module, unsafe_skip_copy=self.settings.fresh_tree)
        old_context = self.context
        with self.resolve(wrapper):
            self.context = replace(self.context, wrapper=wrapper)
            try:
                yield wrapper.module
            finally:
                self.context = old_context
