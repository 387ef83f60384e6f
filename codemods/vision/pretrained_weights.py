"""torchvision-pretrained: `pretrained=True` → `weights=<the enum it loaded>` (TorchFix TOR201)."""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from torchfix.model.project import Project, register_derived_fact
from torchfix.model.scan_memo import every_answer, parse_if_mentions, project_modules
from torchfix.model.test_code import is_benchmark_path, is_example_code, is_test_path
from torchfix.model.test_doubles import replaced_names
from torchfix.rewrite.contract import (
    Codemod,
    Edit,
    FileContext,
    Finding,
    RenameKeyword,
    Safety,
)

from ..prefilter import calls_by_name, from_package
from ..spelling import refer

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

PACKAGES = ("detection", "segmentation", "video", "optical_flow")
SINCE = (1, 12)  # torchvision 0.13, the weights API, pairs with torch 1.12
TORCHVISION_SINCE = (0, 13)
KEYWORDS = (("pretrained", "weights", "weights"), ("pretrained_backbone", "weights_backbone",
                                                    "backbone"))


_TRY_STAR: tuple[type, ...] = (ast.TryStar,) if hasattr(ast, "TryStar") else ()


@dataclass(frozen=True)
class Builder:
    """A torchvision model builder's weights enums."""

    package: str  # "" for torchvision.models itself, else "detection", ...
    weights: str  # "ResNet18_Weights.IMAGENET1K_V1"; "" when there were none
    backbone: str  # the backbone's weights (in torchvision.models); "" if none


@functools.cache
def builders() -> dict[str, Builder]:
    with Path(__file__).with_name("weights.toml").open("rb") as handle:
        table = tomllib.load(handle)
    found: dict[str, Builder] = {}
    for package, rows in table.items():
        for name, value in rows.items():
            if isinstance(value, str):
                value = {"weights": value}
            found[name] = Builder("" if package == "models" else package,
                                  value.get("weights", ""), value.get("backbone", ""))
    return found


class TorchvisionPretrained(Codemod):
    """Replace torchvision's deprecated `pretrained=` with the `weights=` it meant.

    ## What it does
    `resnet18(pretrained=True)` becomes `resnet18(weights=ResNet18_Weights.IMAGENET1K_V1)`,
    `pretrained=False` becomes `weights=None`, and `pretrained_backbone=` of detection and
    segmentation models becomes `weights_backbone=` the same way, for every builder of
    `torchvision.models` (and its `detection`, `segmentation`, `video`, `optical_flow`
    packages), however it is imported. The enum is written through the name the call
    used (`models.resnet18` → `models.ResNet18_Weights`) or imported from
    torchvision.models.

    ## Why
    torchvision 0.13 replaced the booleans by weight enums that say which weights are
    loaded; `pretrained=` warns on every call and is slated for removal.

    ## Example
    ```python
    from torchvision import models

    backbone = models.resnet50(pretrained=True)
    ```
    becomes
    ```python
    backbone = models.resnet50(weights=models.ResNet50_Weights.IMAGENET1K_V1)
    ```

    ## Fix safety
    **Safe**: torchvision maps `pretrained=True` to exactly these weights (the `_V1`
    ones, not the newer `DEFAULT`). A value that is not a literal
    (`pretrained=cfg.pretrained`) is reported with the expression to write, as is a
    builder that had no weights under the old API (`vit_h_14`, `regnet_y_128gf`: choose
    one of their enums), and a call that already passes `weights=`. The weights API needs
    torchvision 0.13 (torch 1.12): where the project declares an older torchvision (or,
    declaring none, an older torch) it can run on, reported. Test code is left alone: a
    test runs on what the project's test requirements allow, which its metadata may not
    say, and there `pretrained=` only warns. TorchFix code: TOR201 (TorchFix 0.7 stopped on
    the whole file at a non-literal value).
    """

    name = "torchvision-pretrained"
    summary = "Replace torchvision's deprecated pretrained= with the weights= enum it meant."
    triggers = (b"torchvision",)  # every builder comes from an import naming it
    fix_safety = "safe"
    codes = ("TOR201",)
    family = "vision"

    @classmethod
    def skips_path(cls, path: Path) -> bool:
        # torch-tb-profiler's tests_require allows torchvision 0.8, which has no weight
        # enums: the rewritten test failed there (round 34). A warning in a test is no bug.
        return is_test_path(path)

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {call.lineno for call in _candidates(tree)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        floor = file.min_torch()
        table = builders()
        for call in _candidates(file.tree):
            found = _builder(file, call, table)
            if found is None:
                continue
            if _weights_fallback(file, call):
                continue  # the `except` arm kept for torchvision < 0.13: left as it is
            builder_name, builder = found
            keywords = {k.arg: k for k in call.keywords}
            edits: list[Edit] = []
            problems: list[str] = []
            for old, new, which in KEYWORDS:
                keyword = keywords.get(old)
                if keyword is None:
                    continue
                if new in keywords:
                    problems.append(f"it passes both {old}= and {new}=")
                    continue
                enum = builder.weights if which == "weights" else builder.backbone
                package = builder.package if which == "weights" else ""
                value = file.semantic.literal(keyword.value)
                qualified = ".".join(filter(None, ("torchvision.models", package,
                                                   enum.split(".")[0])))
                if value is False:
                    edits.append(RenameKeyword(call, old, new, "None"))
                elif not enum:
                    problems.append(f"{builder_name} had no {old} weights under the old API: "
                                    f"choose {new}= from its weights enum")
                elif value is True:
                    spelled = refer(file, call, qualified, via=_chain(call.func),
                                    from_import=True)
                    if spelled is None:
                        problems.append(f"the name {enum.split('.')[0]} is taken here")
                        continue
                    member = enum.split(".", 1)[1]
                    edits.append(RenameKeyword(call, old, new, f"{spelled.text}.{member}"))
                    edits.extend(spelled.imports)
                else:
                    problems.append(f"{old}= is not a literal: write {new}={enum} if "
                                    f"{file.source(keyword.value)} else None")
            if not edits and not problems:
                continue
            vision = file.project.package_floor("torchvision")
            if vision is not None and vision.version < TORCHVISION_SINCE:
                problems.append("the weights API needs torchvision 0.13, and the project "
                                "supports torchvision "
                                f"{vision.version[0]}.{vision.version[1]}")
            elif floor is not None and floor < SINCE:
                problems.append("the weights API needs torchvision 0.13 (torch >= 1.12), and "
                                f"the project supports torch {floor[0]}.{floor[1]}")
            elif vision is None and (predates := file.era_predates(
                    SINCE, "the weights API (torchvision 0.13)")) is not None:
                problems.append(predates)
            elif floor is None and (ceiling := _python_ceiling(file)) is not None:
                # pytorch-fasterrcnn (round 38) requires Python >= 3.6 and names no torch:
                # on Python 3.6 torch stops at 1.10, whose torchvision has no weights enums
                problems.append("the weights API needs torchvision 0.13 (torch >= 1.12), and "
                                f"the project supports {ceiling}")
            names = "/".join(old for old, _, _ in KEYWORDS if old in keywords)
            undeclared = file.undeclared_floor(SINCE, "the weights API (torchvision 0.13)") \
                if vision is None else None
            if problems:
                yield Finding(call, f"{names}= is deprecated: {'; '.join(problems)}",
                              Safety.MANUAL)
            elif double := _replaced_in_tests(file, builder_name):
                # torch-mpo (round 53): its test stands `lambda pretrained=True: ...` in
                # for torchvision's vgg16, which `weights=` then fails with a TypeError
                yield Finding(call, f"{names}= is deprecated: pass the weights it loaded "
                              f"(unsafe: the project's tests replace {double}, maybe with a "
                              f"double that takes {names}= only)", Safety.UNSAFE, tuple(edits))
            elif undeclared is not None:
                # torchnn 0.1 (round 45) lists no dependency and was built on torchvision
                # 0.12, which has no weights enums: judged wrong as a safe fix
                yield Finding(call, f"{names}= is deprecated: pass the weights it loaded "
                              f"(unsafe: {undeclared})", Safety.UNSAFE, tuple(edits))
            else:
                yield Finding(call, f"{names}= is deprecated: pass the weights it loaded",
                              Safety.SAFE, tuple(edits))


REPLACED_BUILDERS = "torchvision-pretrained/replaced-builders"


def replaced_builders(project: Project, root: str) -> str:
    """The torchvision builders the project's tests below `root` replace with a double
    (`monkeypatch.setattr(tv_models, "vgg16", ...)`, `patch("torchvision.models.resnet50")`),
    one "builder name<TAB>what is replaced at path:line" per line, by builder name. Only
    test files that name `patch` or `setattr` are parsed; each file's answer is remembered
    by the scan memo."""
    table = builders()
    found: dict[str, str] = {}
    paths = list(project_modules(root, tests=True))
    answers = every_answer(project.memo(REPLACED_BUILDERS.replace("/", "-")), paths,
                           _replaced_builders_in)
    for path, answer in zip(paths, answers, strict=True):
        for name, line in answer:
            builder = name.rsplit(".", 1)[-1]
            if builder in table and builder not in found:
                where = f"{Path(path).relative_to(root).as_posix()}:{line}"
                found[builder] = f"{name} at {where}"
    return "\n".join(f"{builder}\t{found[builder]}" for builder in sorted(found))


def _replaced_builders_in(path: Path) -> list[tuple[str, int]]:
    tree = parse_if_mentions(path, b"patch", b"setattr")
    return [] if tree is None else replaced_names(tree)


register_derived_fact(REPLACED_BUILDERS, replaced_builders)


def _replaced_in_tests(file: FileContext, builder: str) -> str:
    """What the project's tests replace of torchvision's `builder`, and where ("" where
    nothing, and in examples and benchmarks, which no test runs)."""
    if is_example_code(file.path, file.text) or is_benchmark_path(file.path,
                                                                  file.project.root):
        return ""
    facts = file.project.derived(REPLACED_BUILDERS, str(file.project.root))
    for line in facts.splitlines():
        name, _, where = line.partition("\t")
        if name == builder:
            return where
    return ""


def _older_signature(handler: ast.AST, call: ast.Call, attempt: ast.AST) -> bool:
    """Whether `handler` catches TypeError after a `try:` that calls the same function
    with other arguments: the call in it serves an older torchvision whose signature
    lacks them (torchelper's FID Inception, round 50: `inception_v3(pretrained=True,
    init_weights=False)`, then on TypeError, "pytorch < 1.5", `inception_v3(
    pretrained=True)`), which has no weights API either."""
    if not isinstance(handler, ast.ExceptHandler) or handler.type is None:
        return False
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    if not any(isinstance(name, ast.Name) and name.id == "TypeError" for name in caught):
        return False
    called = ast.dump(call.func)
    return any(isinstance(node, ast.Call) and ast.dump(node.func) == called
               for statement in getattr(attempt, "body", ()) for node in ast.walk(statement))


def _weights_fallback(file: FileContext, call: ast.Call) -> bool:
    """Whether the call sits in an `except` clause whose `try:` body already passes
    `weights=`, or in an arm of an `if` whose other arm does (torch-fidelity: `try:
    vgg16(weights=VGG16_Weights.IMAGENET1K_V1)` / `except Exception: vgg16(
    pretrained=True)`; pyiqa's `if VGG16_Weights is not None:`): the old spelling there serves a
    torchvision without the weights API (round 15), and the rewrite would make the two
    arms the same and break that torchvision."""
    child: ast.AST = call
    for parent in file.semantic.ancestors(call):
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return False
        if (isinstance(parent, (ast.Try, *_TRY_STAR)) and any(
                handler is child for handler in parent.handlers)
                and (_passes_weights(parent.body) or _older_signature(child, call, parent))):
            return True
        if isinstance(parent, (ast.If, ast.IfExp)):
            # `if VGG16_Weights is not None: vgg16(weights=...)` / `else: vgg16(
            # pretrained=True)` (pyiqa, round 22): the other arm serves the new API.
            arms = ([parent.body, parent.orelse] if isinstance(parent, ast.If)
                    else [[parent.body], [parent.orelse]])
            if any(_passes_weights(arm) for arm in arms
                   if not any(statement is child for statement in arm)):
                return True
        child = parent
    return False


def _passes_weights(statements: list[ast.stmt] | list[ast.expr]) -> bool:
    """Whether a call among the statements passes `weights=` or `weights_backbone=`."""
    return any(isinstance(inner, ast.keyword) and inner.arg in ("weights", "weights_backbone")
               for statement in statements for inner in ast.walk(statement))


def _candidates(tree: ast.Module) -> list[ast.Call]:
    """Calls of a builder's name with `pretrained=`, through torchvision's imports."""
    table = builders()
    index = calls_by_name(tree)
    found = [call for name in table.keys() & index.keys() for call in index[name]
             if any(k.arg in ("pretrained", "pretrained_backbone") for k in call.keywords)
             and from_package(tree, call.func, ("torchvision",))]
    return sorted(found, key=lambda call: (call.lineno, call.col_offset))


def _chain(node: ast.expr) -> ast.expr | None:
    return node if isinstance(node, (ast.Attribute, ast.Name)) else None


def _builder(file: FileContext, call: ast.Call, table: dict[str, Builder]
             ) -> tuple[str, Builder] | None:
    """The torchvision builder `call` calls: `torchvision.models[.<package>][.<module>].<name>`."""
    if not any(k.arg in ("pretrained", "pretrained_backbone") for k in call.keywords):
        return None
    meaning = file.semantic.qualified_name(call.func)
    if meaning is None or not meaning.startswith("torchvision.models."):
        return None
    parts = meaning.split(".")[2:]
    name = parts[-1]
    builder = table.get(name)
    if builder is None or len(parts) > 3:
        return None
    package = parts[0] if parts[0] in PACKAGES else ""
    if package != builder.package:
        return None
    return name, builder


def _python_ceiling(file: FileContext) -> str | None:
    """Where the project names no torch floor but supports a Python on which no torch
    with the weights API installs, the words that say so ("Python 3.6 (PKG-INFO), where
    torch stops at 1.10"); None elsewhere."""
    implied = file.project.torch_floor()
    python = file.project.python_floor()
    if implied is None or python is None or not implied.python_implied or \
            implied.version >= SINCE:
        return None
    return (f"Python {python.version[0]}.{python.version[1]} ({python.source}), where torch "
            f"stops at {implied.version[0]}.{implied.version[1]}")
