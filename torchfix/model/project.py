"""The project model: what the rest of the repository says about the names in a file.

A codemod deciding one file often needs a fact defined in another: the class an
attribute is built from and whether its `load_state_dict` takes `strict`, the value of
a constant imported from a `constants.py`, the torch version the project supports,
whether a test expects an `AssertionError`. The project answers such questions lazily:
a module is read (CPython's parse, one semantic model) only when a question needs it,
once per process, so the cost stays below the parses the run makes anyway.

Every fact a file's result read is noted (`facts_read`) with a digest of what it was
read from, and stored with that result in the cache: a cached result is used again
only while every fact it read is unchanged.
"""

from __future__ import annotations

import ast
import contextlib
import os
import re
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

# The models below are imported where they are first needed: a run whose files give no
# codemod anything to do never builds a fact, and `check` of one such file should not pay
# for their imports.
from torchfix.model.floors import UNDECLARED_FLOOR
from torchfix.model.module_names import ModuleName, module_name_for

if TYPE_CHECKING:
    from torchfix.model.expected_errors import Expectation, Reached
    from torchfix.model.facts import ClassFacts, ModuleFacts, Signature
    from torchfix.model.formatter import FormatterSettings
    from torchfix.model.import_settings import ImportSettings
    from torchfix.model.python_floor import PythonFloor
    from torchfix.model.scan_memo import FactMemo, ScanMemo
    from torchfix.model.torch_era import TorchEra
    from torchfix.model.torch_floor import TorchFloor

# How many re-exports (`from .impl import Foo` in `__init__.py`) a lookup follows.
_MAX_HOPS = 8
ABSENT = "absent"
_DISTRIBUTION_FILES = ("pyproject.toml", "setup.py", "setup.cfg", "PKG-INFO")


# eq=False: a project is one object that the run fills in, the same only as itself.
@dataclass(eq=False)
class Project:
    """One repository (the project root of the run) and the facts read from it."""

    root: Path
    # Explicit `min-torch` from the configuration; the project's own floor otherwise.
    configured_min_torch: tuple[int, int] | None = None
    # Where scans over every file of the project remember each file's part between runs
    # (in the result cache's folder); None: every run scans again.
    scan_memo: ScanMemo | None = None
    # Makes the memo of another project-wide scan, by name (`memo()`); None: no memos.
    memo_factory: Callable[[str], ScanMemo] | None = None
    # Imports the codemod of that name (the engine's registry): confirming a derived fact
    # of a codemod this process has not imported registers it. None: such facts miss.
    codemod_loader: Callable[[str], object] | None = None
    # Where the digests of project-wide facts are remembered between runs, for as long as
    # no file of the project changes (in the result cache's folder); None: worked out
    # again on every run.
    fact_memo: FactMemo | None = None
    _fact_memo_context: tuple[Any, ...] | None = field(default=None, repr=False)
    _memos: dict[str, ScanMemo] = field(default_factory=dict, repr=False)
    _source_roots: list[Path] = field(default_factory=list)
    _modules: dict[str, ModuleFacts | None] = field(default_factory=dict, repr=False)
    _module_names: dict[Path, ModuleName] = field(default_factory=dict, repr=False)
    _digests: dict[str, str | None] = field(default_factory=dict, repr=False)
    _floor: TorchFloor | None = field(default=None, repr=False)
    _floor_read: bool = False
    _python_floor: PythonFloor | None = field(default=None, repr=False)
    _python_floor_read: bool = False
    _package_floors: dict[str, TorchFloor | None] = field(default_factory=dict, repr=False)
    _torchless: str | None = field(default=None, repr=False)
    _torchless_read: bool = False
    _era: TorchEra | None = field(default=None, repr=False)
    _era_read: bool = False
    _ceiling: TorchFloor | None = field(default=None, repr=False)
    _ceiling_read: bool = False
    _expectations: tuple[Expectation, ...] | None = field(default=None, repr=False)
    _expectations_digest: str = ""
    _reach: dict[str, tuple[Reached, ...]] | None = field(default=None, repr=False)
    _reach_facts: dict[str, str] = field(default_factory=dict, repr=False)
    _line_length: int | None = field(default=None, repr=False)
    _line_length_read: bool = False
    _inferred_lengths: dict[int, int | None] = field(default_factory=dict, repr=False)
    _counted_lines: list[int] | None = field(default=None, repr=False)
    _formatter: FormatterSettings | None = field(default=None, repr=False)
    _imports: ImportSettings | None = field(default=None, repr=False)
    _has_tests: bool | None = field(default=None, repr=False)
    _test_words: frozenset[str] | None = field(default=None, repr=False)
    _derived: dict[str, str] = field(default_factory=dict, repr=False)
    # Project-wide scans that several derived facts read (the raise census), by name, for
    # this run: a run without a cache (no scan memo) scans the files once, not per fact.
    scans: dict[str, Any] = field(default_factory=dict, repr=False)
    # What the current file's decisions read: fact key → digest (see module docstring).
    facts_read: dict[str, str] = field(default_factory=dict, repr=False)
    # The module being decided, read from the text being decided (an editor's buffer, or
    # the output of an earlier codemod), never from disk: (name, facts when first asked).
    _current: tuple[str, Callable[[], ModuleFacts]] | None = field(default=None, repr=False)
    _current_facts: ModuleFacts | None = field(default=None, repr=False)
    # (name, text, facts_of_text) of the module being decided (`decide_module`), kept
    # while a project-wide fact is worked out, which reads modules from disk.
    _decided_text: tuple[str, str, Callable[[str, str], ModuleFacts] | None] | None = field(
        default=None, repr=False)
    # The source root of the module being decided: its own packages are found there first,
    # as Python finds them, whatever other folders of the run hold a module of that name
    # (salesforce-merlion's `anomaly` package beside `merlion/evaluate/anomaly.py`, round 30).
    _decided_root: Path | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.root = Path(os.path.abspath(self.root))
        for candidate in (self.root, self.root / "src"):
            if candidate.is_dir() and candidate not in self._source_roots:
                self._source_roots.append(candidate)

    def __getstate__(self) -> dict[str, Any]:
        # Sent to worker processes: facts are read again there, lazily.
        state = dict(self.__dict__)
        state["_modules"] = {}
        state["_module_names"] = {}
        state["_digests"] = {}
        state["facts_read"] = {}
        state["_current"] = None
        state["_current_facts"] = None
        state["_decided_text"] = None
        state["_decided_root"] = None
        state["_reach"] = None
        state["_reach_facts"] = {}
        state["_derived"] = {}
        state["_memos"] = {}
        state["scans"] = {}
        return state

    # -- per file ------------------------------------------------------------------------

    def begin_file(self, path: Path) -> None:
        """Start deciding `path`: forget what the previous file read."""
        self.facts_read = {}
        self._current = None
        self._current_facts = None
        self._decided_text = None
        self._decided_root = None

    def decide_module(self, name: str, facts: Callable[[], ModuleFacts],
                      text: str | None = None,
                      facts_of_text: Callable[[str, str], ModuleFacts] | None = None,
                      root: Path | None = None) -> None:
        """The module `name` is the one being decided: its facts come from `facts()` (its
        text as decided), not from the file on disk. Its own content keys the result's
        cache entry already, so reading it is no fact of the result. With its `text`,
        `facts_of_text(path, digest)` stands in for parsing the file again where a
        project-wide fact reads the module from disk and finds that same text."""
        if self._current is None or self._current[0] != name:
            self._current_facts = None
        self._current = (name, facts)
        self._decided_text = (name, text, facts_of_text) if text is not None else None
        self._decided_root = root

    def begin_module(self, path: Path) -> ModuleName:
        """The module name of `path` (its folder becomes a place modules are found)."""
        name = self._module_names.get(path)
        if name is None:
            name = self._module_names[path] = module_name_for(path)
            if name.source_root not in self._source_roots:
                self._source_roots.append(name.source_root)
        return name

    def _note(self, key: str, digest: str) -> None:
        self.facts_read[key] = digest

    def remember_facts(self, facts: Sequence[tuple[str, str]]) -> None:
        """Remember the project facts a freshly decided result read (`FileResult.facts`,
        from this process or a worker), where the memo was stamped before the run worked
        any fact out (`open_fact_memo`): they hold for that stamp, and the first re-run
        need not work them out again."""
        if self.fact_memo is None or self._fact_memo_context is None:
            return
        for key, digest in facts:
            if self._memoized(key):
                self.fact_memo.put(key, digest, write=False)

    def open_fact_memo(self) -> None:
        """Stamp the project's files before a run that processes files works out any
        project fact, so that what it works out is remembered for the next run."""
        if self.fact_memo is not None and self._fact_memo_context is None:
            self._open_fact_memo(self.fact_memo, self._fact_memo_key())

    def flush_fact_memo(self) -> None:
        """Write what this run remembered (`open_fact_memo`), where the project's module
        folders are still the ones it was stamped with."""
        if (self.fact_memo is not None and self._fact_memo_context is not None
                and self._fact_memo_context == self._fact_memo_key()):
            self.fact_memo.flush()

    def _fact_memo_key(self) -> tuple[Any, ...]:
        return (self.configured_min_torch, tuple(self._source_roots))

    # -- modules -------------------------------------------------------------------------

    def module(self, name: str) -> ModuleFacts | None:
        """The facts of the project's module `name`; None if the project has no such
        module (a third-party or standard library module) or it does not parse."""
        if self._current is not None and self._current[0] == name:
            if self._current_facts is None:
                self._current_facts = self._current[1]()
            return self._current_facts
        if name not in self._modules:
            self._modules[name] = self._read_module(name)
        facts = self._modules[name]
        self._note(f"module:{name}", facts.digest if facts is not None else ABSENT)
        return facts

    def missing_relative_imports(self, tree: ast.Module, path: Path
                                 ) -> list[tuple[str, int]]:
        """The top-level relative imports of the module at `path` whose module its package
        lacks (`torchfix.model.importability`). Each folder entry looked up is a fact of
        the result: a module created or deleted beside it makes the result stale."""
        from torchfix.model.importability import missing_relative_imports, module_present

        def present(folder: Path, name: str) -> bool:
            found = module_present(folder, name)
            self._note(f"project:module-entry:{self._entry_key(folder, name)}",
                       "present" if found else ABSENT)
            return found

        return missing_relative_imports(tree, Path(os.path.abspath(path)), self.root,
                                        present)

    def _entry_key(self, folder: Path, name: str) -> str:
        return (folder / name).relative_to(self.root).as_posix()

    def module_path(self, name: str) -> Path | None:
        parts = name.split(".")
        roots = self._source_roots
        if self._decided_root is not None and self._decided_root in roots:
            roots = [self._decided_root, *(r for r in roots if r != self._decided_root)]
        relative = os.path.join(*parts)
        for source_root in roots:  # os.path: asked once per module a cached result read
            base = os.path.join(source_root, relative)
            for candidate in (base + ".py", os.path.join(base, "__init__.py")):
                if os.path.isfile(candidate):
                    return Path(candidate)
        return None

    def _read_module(self, name: str) -> ModuleFacts | None:
        path = self.module_path(name)
        if path is None:
            return None
        try:
            data = path.read_bytes()
        except OSError:
            return None
        digest = _sha256(data)
        decided = self._decided_text
        if decided is not None and decided[0] == name and decided[2] is not None:
            with contextlib.suppress(UnicodeDecodeError):
                if data.decode("utf-8") == decided[1]:  # the text being decided, as parsed
                    return decided[2](str(path), digest)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(data, str(path))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        from torchfix.model.facts import module_facts
        from torchfix.model.semantic import SemanticModel

        model = SemanticModel(tree, name, path.name == "__init__.py")
        return module_facts(model, str(path), digest)

    # -- names ---------------------------------------------------------------------------

    def resolve(self, qualified: str | None) -> Any:
        """What a qualified name refers to in the project: a ClassFacts, a Signature (a
        function), ("constant", value), a ModuleFacts, or None when the project does not
        define it (third-party names, attributes of instances, ...)."""
        if not qualified:
            return None
        return self._resolve(qualified, _MAX_HOPS)

    def _resolve(self, qualified: str, hops: int) -> Any:
        parts = qualified.split(".")
        for split in range(len(parts), 0, -1):
            module = self.module(".".join(parts[:split]))
            if module is not None:
                return self._inside(module, parts[split:], hops)
        return None

    def _inside(self, module: ModuleFacts, rest: Sequence[str], hops: int) -> Any:
        if not rest:
            return module
        dotted = ".".join(rest)
        for length in range(len(rest), 0, -1):
            local = ".".join(rest[:length])
            if local in module.classes:
                cls = module.classes[local]
                remaining = rest[length:]
                if not remaining:
                    return cls
                if len(remaining) == 1 and remaining[0] in cls.methods:
                    return cls.methods[remaining[0]]
                return None
        if dotted in module.functions:
            return module.functions[dotted]
        if dotted in module.constants:
            return ("constant", module.constants[dotted])
        head = rest[0]
        if hops > 0 and head in module.names:
            return self._resolve(".".join([module.names[head], *rest[1:]]), hops - 1)
        if hops > 0:
            for star in module.star_imports:
                found = self._resolve(".".join([star, *rest]), hops - 1)
                if found is not None:
                    return found
        return None

    def class_facts(self, qualified: str | None) -> ClassFacts | None:
        found = self.resolve(qualified)
        from torchfix.model.facts import ClassFacts

        return found if isinstance(found, ClassFacts) else None

    def canonical(self, qualified: str | None) -> str | None:
        """The name a re-exported project class is defined under; others unchanged."""
        found = self.class_facts(qualified)
        return found.qualified_name if found is not None else qualified

    def constant(self, qualified: str | None) -> Any:
        """The literal value of a project constant, or None."""
        found = self.resolve(qualified)
        if isinstance(found, tuple) and len(found) == 2 and found[0] == "constant":
            return found[1]
        return None

    def ancestors(self, qualified: str) -> Iterator[str | None]:
        """Every base of the class, transitively: project classes are followed, other
        names (torch's, a library's) are yielded as they are, None for bases whose name
        is unknown. The class itself is not yielded."""
        seen: set[str] = set()
        queue: list[str | None] = list(self._bases(qualified))
        while queue:
            base = queue.pop(0)
            if base is None:
                yield None
                continue
            facts = self.class_facts(base)
            name = facts.qualified_name if facts is not None else base
            if name in seen:
                continue
            seen.add(name)
            yield name
            if facts is not None:
                queue.extend(facts.bases)

    def _bases(self, qualified: str) -> tuple[str | None, ...]:
        facts = self.class_facts(qualified)
        return facts.bases if facts is not None else ()

    def find_method(self, qualified: str, method: str) -> tuple[str, Signature] | None:
        """The nearest definition of `method` in the class or its project bases, with
        the qualified name of the class that defines it; None if none of them does
        (it may still come from a base outside the project)."""
        for owner in [qualified, *self.ancestors(qualified)]:
            facts = self.class_facts(owner) if owner is not None else None
            if facts is not None and method in facts.methods:
                return facts.qualified_name, facts.methods[method]
        return None

    # -- project-wide facts --------------------------------------------------------------

    def torch_floor(self) -> TorchFloor | None:
        """The oldest torch the project declares it supports (its own metadata)."""
        if not self._floor_read:
            from torchfix.model.torch_floor import find_torch_floor

            self._floor = find_torch_floor(self.root, memo=self.scan_memo)
            if self._floor is None or self._floor.source.startswith(GUARD_SOURCE):
                from torchfix.model.torch_floor import python_implied_floor

                python = self.python_floor()
                implied = python_implied_floor(python.version, python.source) \
                    if python is not None else None
                # Where nothing else says, what a project is taken to run (any torch 2
                # release, UNDECLARED_FLOOR) is the floor an implied one must undercut: a
                # Python 3.8 project's users may run torch 2.2 as well as 2.4
                # (ring-flash-attn, round 31: `torch.get_autocast_dtype`, torch 2.4, was
                # offered as safe on its `requires-python = ">=3.8"` alone).
                ceiling = self._floor.version if self._floor is not None else UNDECLARED_FLOOR
                if implied is not None and implied.version < ceiling:
                    self._floor = implied
            self._floor_read = True
        floor = self._floor
        self._note("project:torch-floor", repr(floor.version) if floor else ABSENT)
        return floor

    def python_floor(self) -> PythonFloor | None:
        """The oldest Python the project supports: its metadata, else its code's checks."""
        if not self._python_floor_read:
            from torchfix.model.python_floor import find_python_floor

            self._python_floor = find_python_floor(self.root, self.memo("python-floor"))
            self._python_floor_read = True
        floor = self._python_floor
        self._note("project:python-floor", repr(floor.version) if floor else ABSENT)
        return floor

    def torch_ceiling(self) -> TorchFloor | None:
        """The first torch version the project's metadata no longer admits (`torch>=2.0,
        <2.2` → 2.2), with the file that says so; None where nothing bounds torch."""
        if not self._ceiling_read:
            from torchfix.model.torch_floor import find_torch_ceiling

            self._ceiling = find_torch_ceiling(self.root)
            self._ceiling_read = True
        ceiling = self._ceiling
        self._note("project:torch-ceiling", repr(ceiling.version) if ceiling else ABSENT)
        return ceiling

    def dependencies_without_torch(self) -> str | None:
        """The file listing the project's dependencies where none of them is torch (nor
        torchvision or torchaudio), "" where no file lists any: nothing then says which
        torch it runs. None where torch is listed."""
        if not self._torchless_read:
            from torchfix.model.torch_floor import find_dependencies_without_torch

            self._torchless = find_dependencies_without_torch(self.root)
            self._torchless_read = True
        self._note("project:dependencies-without-torch", _torchless_digest(self._torchless))
        return self._torchless

    def torch_era(self) -> TorchEra | None:
        """The torch that was current when the project's metadata was last changed, where
        that predates torch 2.0 (`torchfix.model.torch_era`); None otherwise."""
        if not self._era_read:
            from torchfix.model.torch_era import find_torch_era

            self._era = find_torch_era(self.root)
            self._era_read = True
        self._note("project:torch-era", _era_digest(self._era))
        return self._era

    def package_floor(self, package: str) -> TorchFloor | None:
        """The oldest version of `package` (`torchvision`) the project declares."""
        if package not in self._package_floors:
            from torchfix.model.torch_floor import find_package_floor

            self._package_floors[package] = find_package_floor(self.root, package)
        floor = self._package_floors[package]
        self._note(f"project:floor:{package}", repr(floor.version) if floor else ABSENT)
        return floor

    def min_torch(self) -> tuple[int, int] | None:
        """The torch version fixes may rely on: `min-torch` from the configuration, else
        the project's declared floor; None when neither says (nor where only its Python
        floor bounds torch and its dependencies do not name torch)."""
        # Not part of the engine's settings: a cached result must know it read it.
        self._note("config:min-torch", repr(self.configured_min_torch))
        if self.configured_min_torch is not None:
            return self.configured_min_torch
        floor = self.torch_floor()
        if floor is not None and floor.python_implied and \
                self.dependencies_without_torch() is not None:
            # farm-haystack (round 30) lists transformers but no torch and supports
            # Python 3.8: its users' torch is at most 2.4, and may be any older one; so
            # does a project that lists no dependency at all (torch-print-summary, round
            # 50: Python 3.7's torch 1.13 at most, built on the torchvision 0.12 of 2022)
            return None
        return floor.version if floor is not None else None

    def formatter_line_length(self) -> int | None:
        """The line length the project's formatter keeps to (ruff's, black's, yapf's), else
        the one flake8 allows, at the project root, else the one its code evidently keeps
        to (`torchfix.model.line_length`); None where nothing sets one and the code keeps
        to black's 88 (or to no common limit)."""
        if not self._line_length_read:
            from torchfix.model.line_length import find_formatting

            formatting = find_formatting(self.root)
            self._line_length = formatting.line_length
            if formatting.infer_from is not None:
                self._line_length = self.inferred_line_length(formatting.infer_from)
            self._line_length_read = True
        self._note("project:line-length", repr(self._line_length))
        return self._line_length

    def inferred_line_length(self, base: int) -> int | None:
        """The line length the project's own modules keep to (tests aside), where it is
        longer than `base`; else `base` where it is yapf's 79, else None
        (`torchfix.model.line_length.infer_line_length`). Each module's line counts are
        remembered between runs; the result is part of the facts that read it
        (`project:line-length`, `project:formatter-settings`), never noted itself."""
        if base not in self._inferred_lengths:
            from torchfix.model.line_length import FLAKE8_LINE_LENGTH, infer_line_length

            inferred = infer_line_length(self._line_counts(), base)
            if inferred is None and base == FLAKE8_LINE_LENGTH:
                inferred = base  # yapf's pep8 style, where the code keeps to it
            self._inferred_lengths[base] = inferred
        return self._inferred_lengths[base]

    def _line_counts(self) -> list[int]:
        """The summed `line_counts` of the project's own modules (tests aside), each
        module's remembered between runs."""
        if self._counted_lines is None:
            from torchfix.model.line_length import line_counts
            from torchfix.model.scan_memo import project_modules

            memo = self.memo("line-lengths")
            total: list[int] = []
            for path in project_modules(self.root):
                counts = (line_counts(path) if memo is None
                          else memo.result(path, str(path), line_counts))
                total = ([a + b for a, b in zip(total, counts, strict=True)] if total
                         else list(counts))
            if memo is not None:
                memo.save()
            self._counted_lines = total
        return self._counted_lines

    def formatter_settings(self) -> FormatterSettings:
        """How the project's formatter and linter want code written: line length, quote
        style, enabled lint rules (`torchfix.model.formatter`)."""
        if self._formatter is None:
            import dataclasses

            from torchfix.model.formatter import find_formatter_settings

            settings = find_formatter_settings(self.root)
            if settings.infer_line_length_from is not None:
                from torchfix.model.line_length import infer_dedents

                # yapf listed, its style not in the files: whether it dedents a closing
                # bracket shows in the code too
                hugs = settings.hugs_closing_bracket and not infer_dedents(self._line_counts())
                settings = dataclasses.replace(settings, line_length=self.inferred_line_length(
                    settings.infer_line_length_from), hugs_closing_bracket=hugs)
            self._formatter = settings
        self._note("project:formatter-settings", repr(self._formatter))
        return self._formatter

    def import_settings(self) -> ImportSettings:
        """How the project's import sorter (ruff's isort rules, or isort) orders imports
        (`torchfix.model.import_settings`)."""
        if self._imports is None:
            from torchfix.model.import_settings import find_import_settings

            self._imports = find_import_settings(self.root)
        self._note("project:import-settings", repr(self._imports))
        return self._imports

    def darglint_style(self) -> str | None:
        """The docstring style darglint checks in the project (`google`, `sphinx`,
        `numpy`); None where the project does not use darglint (read with the formatter
        settings, `torchfix.model.formatter`)."""
        return self.formatter_settings().docstring_style

    def has_tests(self) -> bool:
        """Whether any test file under the project root (`test_*.py`, `*_test.py`, files
        under `tests/`, ...) holds a test (`holds_tests`: not a helper module such as
        `test_utils.py`). An sdist or wheel usually ships none: the tests that exercise
        its code exist, but cannot be seen."""
        if self._has_tests is None:
            from torchfix.model.expected_errors import holds_tests, test_files

            self._has_tests = any(
                holds_tests(path) for path in test_files(self.root, helpers=False))
        self._note("project:has-tests", repr(self._has_tests))
        return self._has_tests

    def named_by_tests(self, name: str) -> bool:
        """Whether a test file of the project (`test_files`, helpers such as `conftest.py`
        too) holds the identifier `name` anywhere in its text: a test may call it. Read as
        words of the files' bytes, not parsed: a mention in a comment counts, which errs
        towards "a test calls it". Codemods ask through a derived fact keyed by the name
        (assert-to-raise's "tested"), so that a cached result depends on this name's
        answer only."""
        if self._test_words is None:
            from torchfix.model.expected_errors import test_files

            words: set[str] = set()
            for path in test_files(self.root):
                try:
                    data = path.read_bytes()
                except OSError:
                    continue
                words.update(word.decode("ascii") for word in _IDENTIFIER.findall(data))
            self._test_words = frozenset(words)
        return name in self._test_words

    def is_distribution(self) -> bool:
        """Whether the root holds packaging metadata (`pyproject.toml`, `setup.py`,
        `setup.cfg`, an sdist's `PKG-INFO`, a wheel's `*.dist-info`): a project others
        install, whose users and tests call its functions."""
        found = any((self.root / name).is_file() for name in _DISTRIBUTION_FILES) or any(
            self.root.glob("*.dist-info"))
        self._note("project:distribution", repr(found))
        return found

    def is_built_distribution(self) -> bool:
        """Whether the root is an unpacked sdist or wheel (`PKG-INFO` or `*.dist-info`, no
        `.git`): not the repository, so the tests it holds are the ones its packaging
        chose to ship, not its test suite."""
        found = ((self.root / "PKG-INFO").is_file() or any(self.root.glob("*.dist-info"))
                 ) and not (self.root / ".git").exists()
        self._note("project:built-distribution", repr(found))
        return found

    def assertion_expectations(self) -> tuple[Expectation, ...]:
        """Where the project's tests expect an `AssertionError` (`pytest.raises`,
        `assertRaises`), and where its own code catches one (`except AssertionError:`):
        the asserts those rely on must keep raising it."""
        if self._expectations is None:
            from torchfix.model.expected_errors import expectations_in

            self._expectations = tuple(expectations_in(self.root))
            # Sets printed in a stable order: repr() of a frozenset follows string hashes,
            # which differ from one process to the next, and a warm run would miss.
            canonical = [(e.path, e.line, sorted(e.callees), e.pattern, sorted(e.tolerated),
                          e.entries, e.handler) for e in self._expectations]
            self._expectations_digest = _sha256(repr(canonical).encode())
        self._note("project:assertion-expectations", self._expectations_digest)
        return self._expectations

    def assertion_reach(self) -> dict[str, tuple[Reached, ...]]:
        """The project functions a test expecting `AssertionError` calls, directly or a
        few calls below (`torchfix.model.expected_errors.reach`), by qualified name
        ("pkg.mod.Class.method"), with the tests that reach them. Read from the modules on
        disk (never the text being decided), once per process; every module the walk read
        is a fact of the result that asks."""
        expectations = self.assertion_expectations()
        if self._reach is None:
            saved = (self.facts_read, self._current, self._current_facts)
            self.facts_read, self._current, self._current_facts = {}, None, None
            from torchfix.model.expected_errors import reach

            try:
                self._reach = reach(self, expectations)
                self._reach_facts = self.facts_read
            finally:
                self.facts_read, self._current, self._current_facts = saved
        self.facts_read.update(self._reach_facts)
        return self._reach

    def _register(self, kind: str) -> bool:
        """Import the codemod a derived fact's kind names, which registers the kind; whether
        it did (a cached result naming an unknown codemod is simply a miss)."""
        if self.codemod_loader is None:
            return False
        try:
            self.codemod_loader(kind.split("/", 1)[0])
        except Exception:  # unknown or unloadable: the result is recomputed
            return False
        return kind in _DERIVED

    def memo(self, name: str) -> ScanMemo | None:
        """The memo of the project-wide scan `name` (each file's part of it, kept between
        runs beside the results); None when the run keeps no cache."""
        if self.memo_factory is None:
            return None
        if name not in self._memos:
            self._memos[name] = self.memo_factory(name)
        return self._memos[name]

    def derived(self, kind: str, name: str) -> str:
        """A project-wide fact a codemod computes (`register_derived_fact`): what several
        files of the project say together (how many modules of a package atomic-save
        rewrites). Computed once per process, from the files on disk; what the
        computation itself read is not a fact of the result that asks, the value is."""
        key = f"derived:{kind}:{name}"
        if key not in self._derived:
            saved = (self.facts_read, self._current, self._current_facts)
            self.facts_read, self._current, self._current_facts = {}, None, None
            try:
                self._derived[key] = _DERIVED[kind](self, name)
            finally:
                self.facts_read, self._current, self._current_facts = saved
        self._note(key, self._derived[key])
        return self._derived[key]

    # -- the cache -----------------------------------------------------------------------

    def current_digest(self, key: str) -> str | None:
        """The digest a fact has now, to compare with what a cached result read; None for
        a key this version does not know (the result is then recomputed). Remembered for
        the rest of the run (`refresh()` forgets)."""
        if key not in self._digests:
            digest = self._remembered(key)
            if digest is None:
                digest = self._digest_now(key)
                if digest is not None and self.fact_memo is not None and self._memoized(key):
                    self.fact_memo.put(key, digest)
            self._digests[key] = digest
        return self._digests[key]

    def _memoized(self, key: str) -> bool:
        """Whether the fact memo may answer for `key`: a project-wide fact (a module's
        digest is one file's, as cheap to read again as to look up)."""
        return self.fact_memo is not None and key.startswith(("project:", "derived:"))

    def _remembered(self, key: str) -> str | None:
        """The digest the fact memo holds for `key` in the project's present state.

        The project's files are stamped once per run, when a cached result first asks to
        confirm a project fact, before any fact is worked out from them: what is
        remembered then is never newer than the stamp. (A run that confirms no fact, one
        that processes the files it checks, never walks the project for it.)

        The memo is valid for the files below the root as they are now, with the run's
        `min-torch` and the folders modules are found in (derived facts resolve names
        through them); a source root outside the project root, whose files the stamp does
        not cover, keeps the memo shut."""
        if self.fact_memo is None or not self._memoized(key):
            return None
        context = self._fact_memo_key()
        if context != self._fact_memo_context:
            self._open_fact_memo(self.fact_memo, context)
        return self.fact_memo.get(key)

    def _open_fact_memo(self, memo: FactMemo, context: tuple[Any, ...]) -> None:
        from torchfix.model.scan_memo import tree_stamp

        self._fact_memo_context = context
        inside = all(folder.is_relative_to(self.root) for folder in self._source_roots)
        tree = tree_stamp(self.root) if inside else None
        memo.open(None if tree is None else _sha256(repr((tree, *context)).encode()))

    def refresh(self) -> None:
        """Forget everything read: files may have changed (a long-running server)."""
        self._modules.clear()
        self._digests.clear()
        self._floor_read = False
        self._python_floor_read = False
        self._torchless_read = False
        self._era_read = False
        self._ceiling_read = False
        self._package_floors.clear()
        self._expectations = None
        self._reach = None
        self._reach_facts = {}
        self._line_length_read = False
        self._inferred_lengths.clear()
        self._counted_lines = None
        self._formatter = None
        self._imports = None
        self._has_tests = None
        self._test_words = None
        self._derived.clear()
        self.scans.clear()
        self._fact_memo_context = None

    def _digest_now(self, key: str) -> str | None:
        saved = dict(self.facts_read)
        try:
            kind, _, name = key.partition(":")
            if kind == "module":
                path = self.module_path(name)
                if path is None:
                    return ABSENT
                try:
                    return _sha256(path.read_bytes())
                except OSError:
                    return ABSENT
            if key == "config:min-torch":
                return repr(self.configured_min_torch)
            if key == "project:torch-floor":
                floor = self.torch_floor()
                return repr(floor.version) if floor else ABSENT
            if key == "project:torch-ceiling":
                ceiling = self.torch_ceiling()
                return repr(ceiling.version) if ceiling else ABSENT
            if key == "project:dependencies-without-torch":
                return _torchless_digest(self.dependencies_without_torch())
            if key == "project:torch-era":
                return _era_digest(self.torch_era())
            if key == "project:python-floor":
                python_floor = self.python_floor()
                return repr(python_floor.version) if python_floor else ABSENT
            if kind == "project" and name.startswith("module-entry:"):
                from torchfix.model.importability import module_present

                entry = self.root / name.removeprefix("module-entry:")
                return "present" if module_present(entry.parent, entry.name) else ABSENT
            if kind == "project" and name.startswith("floor:"):
                package_floor = self.package_floor(name.removeprefix("floor:"))
                return repr(package_floor.version) if package_floor else ABSENT
            if key == "project:line-length":
                return repr(self.formatter_line_length())
            if key == "project:formatter-settings":
                return repr(self.formatter_settings())
            if key == "project:import-settings":
                return repr(self.import_settings())
            if key == "project:has-tests":
                return repr(self.has_tests())
            if key == "project:distribution":
                return repr(self.is_distribution())
            if key == "project:built-distribution":
                return repr(self.is_built_distribution())
            if kind == "derived":
                derived_kind, _, derived_name = name.partition(":")
                if derived_kind not in _DERIVED and not self._register(derived_kind):
                    return None
                return self.derived(derived_kind, derived_name)
            if key == "project:assertion-expectations":
                self.assertion_expectations()
                return self._expectations_digest
            return None
        finally:
            self.facts_read = saved


def _era_digest(era: TorchEra | None) -> str:
    return repr((era.torch, era.current, era.month, era.source)) if era is not None else ABSENT


def _torchless_digest(listed: str | None) -> str:
    """`dependencies_without_torch()`'s answer as a fact's digest."""
    return ABSENT if listed is None else listed or "no-dependencies"


def is_torch_module_class(qualified: str) -> bool:
    """Whether the class is one of torch's module classes (`torch.nn.Module`,
    `torch.nn.Sequential`, `torch.nn.modules.conv.Conv2d`), as the semantic model
    qualifies it; not `Parameter`, `ParameterList`, nor the classes of `torch.nn.utils`."""
    parts = qualified.split(".")
    last = parts[-1]
    return (parts[:2] == ["torch", "nn"] and last[:1].isupper() and "utils" not in parts
            and "parameter" not in parts and last not in ("Parameter", "ParameterList"))


# Project-wide facts a codemod computes itself (`Project.derived`), by kind: the function
# computing the fact named `name` of that kind. Registered when the codemod's module is
# imported. A kind is named "<codemod>/<fact>", so that confirming a cached result in a
# process that has not imported that codemod (a warm run imports none) imports it.
_DERIVED: dict[str, Callable[[Project, str], str]] = {}


def register_derived_fact(kind: str, compute: Callable[[Project, str], str]) -> None:
    """Let codemods ask `Project.derived(kind, name)`: `compute(project, name)` gives the
    fact, a string that is also its digest in the cache. `kind` is "<codemod>/<fact>"."""
    if "/" not in kind or ":" in kind:
        raise ValueError(f"a derived fact's kind is '<codemod>/<fact>', not {kind!r}")
    _DERIVED[kind] = compute


_IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


# How `find_torch_floor` names a floor read off the code's version checks.
GUARD_SOURCE = "the torch version check"


def _sha256(data: bytes) -> str:
    """The hex digest of `data`. hashlib is imported here, on first use: a run whose
    files trigger no codemod never asks the project model a question, and `check` of
    one such file should not pay for loading OpenSSL."""
    import hashlib

    return hashlib.sha256(data).hexdigest()
