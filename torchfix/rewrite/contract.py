"""The codemod contract: decide on CPython's tree, edit with libcst.

A codemod declares what it is (`name`, `summary`, `triggers`, `options`, TorchFix
`codes`) and decides, in `check()`, every change it makes to a file, reading the file's
tree and the shared semantic and project models (`FileContext`). Each decision is a
`Finding`: where, what it says, how safe, and how to make the change. `torchfix check`
stops there and never imports libcst.

Making a change is a separate step (`torchfix.rewrite.editing`, libcst): a finding
either carries the shared edit primitives below (`edits`: add a keyword, replace an
expression, add an import, ...), or the codemod names its own libcst `editor`, a class
that turns its findings into edits. Either way `apply` changes exactly what `check`
reports: the findings are the plan, and an edit that cannot be made is an error.

Nothing here imports libcst: the registry, `check`, `list` and `explain` read codemods
through this module alone.
"""

from __future__ import annotations

import ast
import io
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from torchfix.model.floors import NO_TORCH_LISTED_FLOOR, UNDECLARED_FLOOR

# What a run reports (re-exported: codemods and the engine name them through the contract).
from torchfix.rewrite.changes import Change as Change
from torchfix.rewrite.changes import Safety
from torchfix.rewrite.changes import applies as applies

if TYPE_CHECKING:
    from torchfix.model.module_names import ModuleName
    from torchfix.model.project import Project
    from torchfix.model.semantic import SemanticModel


@dataclass(frozen=True)
class Option:
    """A codemod setting readable from `[tool.torchfix.<codemod>]`."""

    name: str  # kebab-case key used in configuration
    default: bool | int | float | str
    help: str
    # Called with a configured value of the right type; raises ValueError (whose message
    # is shown to the user as a configuration error) for values the codemod cannot use.
    check: Callable[[Any], object] | None = None


# -- where ---------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Span:
    """A range of the file in 1-based lines and 0-based character columns (end exclusive),
    the way libcst counts; CPython counts columns in UTF-8 bytes (see `FileContext.span`)."""

    line: int
    column: int
    end_line: int
    end_column: int


# -- the shared edit primitives ------------------------------------------------------------
#
# Each names the node it edits by its span (an ast node's span, converted by the engine),
# and carries source text for what it inserts. Text inserted is parsed by libcst before it
# is used, and every output is parsed and compiled again: a primitive never writes text
# that is not Python.


@dataclass(frozen=True)
class ReplaceNode:
    """Replace the expression (or statement) at `target` with `code`."""

    target: ast.AST
    code: str


@dataclass(frozen=True)
class AddKeyword:
    """`f(a)` → `f(a, name=value)` at the end of the call `target`, keeping its layout."""

    target: ast.Call
    name: str
    value: str


@dataclass(frozen=True)
class RemoveKeyword:
    """`f(a, name=value)` → `f(a)`."""

    target: ast.Call
    name: str


@dataclass(frozen=True)
class RenameKeyword:
    """`f(old=v)` → `f(new=v)`; with `value`, the value is replaced too."""

    target: ast.Call
    name: str
    new_name: str
    value: str | None = None


@dataclass(frozen=True)
class AddImport:
    """Make `import module` / `from module import name [as alias]` present."""

    module: str
    name: str | None = None
    alias: str | None = None


@dataclass(frozen=True)
class RemoveImport:
    """Remove `import module` / `from module import name` if nothing uses it any more."""

    module: str
    name: str | None = None
    alias: str | None = None


@dataclass(frozen=True)
class CreateFile:
    """Create the file `path` holding `content` (a change that needs a file of its own,
    such as a helper module shared by a package).

    Not an edit of the file being fixed: the engine collects it from the applied
    findings of every file of the run, creates each path once (the same content asked
    for by several files is one file; a path that exists already is left alone if it
    holds exactly `content`, else the files asking for it fail), verifies it (Python
    must parse and compile) and treats it like a rewritten file: `diff` shows it as a
    new file, `apply` writes it first and records it, `undo` removes it.
    """

    path: Path
    content: str


Edit = (ReplaceNode | AddKeyword | RemoveKeyword | RenameKeyword | AddImport | RemoveImport
        | CreateFile)


# -- what a codemod decides ----------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """One change a codemod decided: where, what it says, how safe, and how to make it.

    `node` is the CPython node the change is about: its span locates the change (and its
    suppression comments). A finding with no fix has `safety=Safety.MANUAL`.
    """

    node: ast.AST
    message: str
    safety: Safety = Safety.SAFE
    edits: tuple[Edit, ...] = ()  # for codemods without an editor of their own
    data: Any = None  # for codemods with an `editor`: what to do here, in its own terms
    # Which of the codemod's TorchFix `codes` this is ("TOR004"); None: its only code.
    code: str | None = None


# -- what a codemod is told about the file ---------------------------------------------------


class SuppressionComments(Protocol):
    """What a codemod may ask of a file's suppression comments."""

    def __bool__(self) -> bool: ...

    def suppresses(self, codemod: str, first_line: int, last_line: int) -> bool: ...


@dataclass
class FileContext:
    """One file as a codemod sees it in `check()`: its text, tree and models."""

    path: Path
    text: str
    tree: ast.Module
    project: Project
    module: ModuleName
    options: Mapping[str, Any] = field(default_factory=dict)
    # The file's suppression comments, as the engine read them from `text`
    # (`torchfix.rewrite.suppressions.Suppressions`).
    suppressions: SuppressionComments | None = field(default=None, repr=False)
    _model: SemanticModel | None = field(default=None, repr=False)
    _lines: list[str] | None = field(default=None, repr=False)
    _quote: str | None = field(default=None, repr=False)

    def suppressed(self, codemod: str, node: ast.AST) -> bool:
        """Whether a suppression comment on the lines of `node` silences `codemod`: the
        engine leaves such findings out; a codemod whose findings depend on each other
        (a local goes with the calls it feeds) asks before it decides."""
        if not self.suppressions:
            return False
        span = self.span(node)
        return self.suppressions.suppresses(codemod, span.line, span.end_line)

    @property
    def semantic(self) -> SemanticModel:
        """The file's semantic model (built on first use, shared by every codemod)."""
        if self._model is None:
            from torchfix.model.semantic import model_of

            self._model = model_of(self.tree, self.module.name, self.module.is_package)
        return self._model

    @property
    def lines(self) -> list[str]:
        """The file's physical lines as CPython counts them (no line ends)."""
        if self._lines is None:
            self._lines = physical_lines(self.text)
        return self._lines

    def span(self, node: ast.AST) -> Span:
        """Where `node` is, in characters (CPython gives UTF-8 byte columns)."""
        line = node.lineno  # type: ignore[attr-defined]
        end_line = getattr(node, "end_lineno", None) or line
        end_offset = getattr(node, "end_col_offset", None)
        column = self._characters(line, node.col_offset)  # type: ignore[attr-defined]
        end_column = (self._characters(end_line, end_offset) if end_offset is not None
                      else column)
        return Span(line, column, end_line, end_column)

    def _characters(self, line: int, byte_offset: int) -> int:
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if text.isascii():
            return byte_offset
        return len(text.encode("utf-8")[:byte_offset].decode("utf-8", "replace"))

    def source(self, node: ast.AST) -> str:
        """The exact source text of `node`, as written (comments and layout inside it)."""
        span = self.span(node)
        if span.line == span.end_line:
            return self.lines[span.line - 1][span.column:span.end_column]
        parts = [self.lines[span.line - 1][span.column:]]
        parts += self.lines[span.line:span.end_line - 1]
        parts.append(self.lines[span.end_line - 1][:span.end_column])
        return "\n".join(parts)

    def string_quote(self) -> str:
        """The quote for a string a codemod adds: the one the formatter's configuration
        fixes (`FormatterSettings.quote`), else the one the file's strings mostly use."""
        if self._quote is None:
            from torchfix.model.formatter import file_quote

            self._quote = self.project.formatter_settings().quote or file_quote(self.text)
        return self._quote

    def in_quotes(self, text: str) -> str:
        """`text` (no quotes or backslashes in it) as a string literal in `string_quote`."""
        quote = self.string_quote()
        return f"{quote}{text}{quote}"

    def option(self, name: str, codemod: type[Codemod]) -> Any:
        if name in self.options:
            return self.options[name]
        return codemod.option_defaults()[name]

    def min_torch(self) -> tuple[int, int] | None:
        """The oldest torch the code must keep working on: `min-torch` from the
        configuration, else the project's declared floor; None when neither says."""
        return self.project.min_torch()

    def never_deprecated(self, deprecated_in: tuple[int, int], codemod: type[Codemod]) -> bool:
        """Whether every torch the project admits predates `deprecated_in`: its metadata
        bounds torch below it (gravitorch's `torch>=2.0,<2.2`, torch-tensornet's
        `torch==1.9.0`), and neither `min-torch` nor the codemod's own option says
        otherwise. There the old API warns on no torch the project runs, its tests check
        the calls as written, and a migration is churn (rounds 39 and 44 read it wrong)."""
        if "min-torch" in self.options or self.project.configured_min_torch is not None:
            return False
        ceiling = self.project.torch_ceiling()
        return ceiling is not None and ceiling.version <= deprecated_in

    def undeclared_floor(self, since: tuple[int, int], what: str) -> str | None:
        """Why a fix whose replacement needs torch `since` is unsafe here, where the
        project declares no torch version (nor a `min-torch`): its dependency files list
        no torch, or it lists no dependency at all (it may run any torch, 1.x included),
        and `since` is newer than torch 1.0; or they list torch without a version and
        `since` is newer than UNDECLARED_FLOOR, or than the torch current when the
        project's metadata was last changed, where that was before torch 2.0
        (`Project.torch_era`). None where the project says what it supports (the codemod
        then compares with that) or where `since` is old enough."""
        if self.min_torch() is not None:
            return None
        needs = f"{what} needs torch >= {since[0]}.{since[1]}"
        listed = self.project.dependencies_without_torch()
        if listed == "" and since > NO_TORCH_LISTED_FLOOR:
            return f"{needs}, and the project lists no dependencies: nothing says which " \
                   "torch it runs"
        if listed and since > NO_TORCH_LISTED_FLOOR:
            return f"{needs}, and the project's dependencies ({listed}) do not name torch"
        if since <= UNDECLARED_FLOOR and listed is None:
            # pytorch-sconce 1.4.0 (round 48): `torch` bare, metadata from 2021-09
            return self.era_predates(since, what)
        if since <= UNDECLARED_FLOOR:
            return None
        return f"{needs}, and the project declares no torch version"

    def era_predates(self, since: tuple[int, int], what: str) -> str | None:
        """Why a fix whose replacement needs torch `since` cannot run on the torch the
        project was made for, where it declares no torch version (nor a `min-torch`) and
        its metadata was last changed when an older torch was current
        (`Project.torch_era`): a release left as it was runs the torch of its day. The
        codemods report such a fix rather than offer it: reviewers called it wrong even
        as an unsafe fix (round 52: nn-torch's `torch.where` with Python numbers, torch
        1.12, in a 2020 release naming torch bare; round 53: torch-buddy's
        `weights_only`, torch 1.13, in a 2019 release listing only pandas-summary). None
        where the project says what it supports, or `since` is no newer than its era."""
        if self.min_torch() is not None:
            return None
        era = self.project.torch_era()
        if era is None or since <= era.torch:
            return None
        needs = f"{what} needs torch >= {since[0]}.{since[1]}"
        when = (f"last changed in {era.month_text} ({era.source}), when torch "
                f"{era.current[0]}.{era.current[1]} was current")
        if era.torch != era.current:
            when += (" and its users still ran the torch of six months before, "
                     f"{era.torch[0]}.{era.torch[1]}")
        if self.project.dependencies_without_torch() is None:
            return f"{needs}, and the project names torch without a version in metadata {when}"
        return f"{needs}, and the project names no torch version in metadata {when}"


def physical_lines(text: str) -> list[str]:
    # CPython ends lines at \r\n, \r and \n only; str.splitlines also splits at \f, \v...
    return io.StringIO(text, newline=None).read().split("\n")


# -- the codemod ---------------------------------------------------------------------------


class Codemod:
    """Base class of every codemod. Subclasses set the class attributes and `check()`."""

    name: ClassVar[str]  # kebab-case, stable: used in --select, config and suppressions
    summary: ClassVar[str]
    triggers: ClassVar[tuple[bytes, ...]]  # a file holding none of these is never parsed
    # What `torchfix list` shows: "safe", "unsafe", "safe, unsafe" or "report".
    fix_safety: ClassVar[str] = "safe"
    enabled_by_default: ClassVar[bool] = True
    options: ClassVar[tuple[Option, ...]] = ()
    # TorchFix's codes for the same rule ("TOR102"): accepted wherever a name is.
    codes: ClassVar[tuple[str, ...]] = ()
    family: ClassVar[str] = ""
    # "module:Class" of a libcst editor (a `torchfix.rewrite.editing.Editor`) that makes
    # this codemod's changes from its findings' `data`, relative to the codemod's package
    # (".amp_api_edit:AmpApiEditor"); None: the findings carry the shared edit primitives.
    editor: ClassVar[str | None] = None

    @classmethod
    def skips_path(cls, path: Path) -> bool:
        """Whether this codemod never acts on the file at `path` (test files, say).

        Asked before the file is read into any parser. The default acts everywhere.
        """
        del path
        return False

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> Collection[int] | None:
        """A cheap first look (after the byte `triggers` matched): the lines where this
        codemod may act; an empty result skips `check()` for the file. None: always check.
        """
        del tree
        return None

    @classmethod
    def check(cls, file: FileContext) -> Iterable[Finding]:
        """Every change this codemod makes to the file, decided on CPython's tree."""
        raise NotImplementedError(f"{cls.__name__} does not implement check()")

    @classmethod
    def option_defaults(cls) -> dict[str, Any]:
        return {option.name: option.default for option in cls.options}

    @classmethod
    def documentation(cls) -> str:
        import inspect

        return inspect.cleandoc(cls.__doc__ or "")


def is_codemod(value: object) -> bool:
    return isinstance(value, type) and issubclass(value, Codemod) and value is not Codemod


def sorted_findings(findings: Sequence[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (getattr(f.node, "lineno", 0),
                                           getattr(f.node, "col_offset", 0)))
