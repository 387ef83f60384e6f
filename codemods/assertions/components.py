"""The package's inner components: classes the package builds itself and does not export.

`vit_pytorch.mobile_vit.MV2Block` is built only by `MobileViT` (`MV2Block(channels[0],
channels[1], 1, expansion)`) and is not imported by `vit_pytorch/__init__.py`: users build
a `MobileViT`, never an `MV2Block`, and what its asserts check (`stride in [1, 2]`, the
`context` its own model hands its `forward`) is wiring the package fixes, not a user's
argument. assert-to-raise leaves such checks alone as internal invariants.

Two project-wide facts (`Project.derived`), confirmed on warm runs like the others:
`INSTANTIATIONS`, every call of a package class in the package's modules (each file's part
remembered between runs), and `COMPONENT`, per class, what builds it ("" where it is no
component), which is what a decision reads.
"""

from __future__ import annotations

import ast
import json
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from torchfix.model.facts import Parameter, ParameterKind
from torchfix.model.module_names import module_name_for
from torchfix.model.project import Project, register_derived_fact
from torchfix.model.scan_memo import project_modules
from torchfix.model.semantic import BindingKind

if TYPE_CHECKING:
    from torchfix.model.semantic import SemanticModel

# "<codemod>/<fact>" (see `register_derived_fact`).
# name: "<top-level package>:<class name>"
INSTANTIATIONS = "assert-to-raise/instantiations"
COMPONENT = "assert-to-raise/component"  # name: the class's qualified name
# Subpackages whose code uses the package as its users do: what they build is no component.
_USER_CODE = frozenset({"examples", "example", "demos", "demo", "recipes", "scripts",
                        "notebooks", "benchmarks", "tutorials"})


def component(project: Project, qualified: str) -> str:
    """What makes the package class `qualified` a component, as JSON {"by": the class or
    function that builds it, "literal": the constructor's parameters every call in the
    package passes a literal or leaves to its default, "passed": for each call, the
    parameters it passes ("given") and those it passes a value that is not None by
    construction ("there": `(frames, size, size)`, `size // 2`, a local bound to one)};
    "" where it is none. A component
    is defined in a module of a package (not in an `__init__.py`), is not bound by an
    `__init__.py` of the packages above its module (imported there, listed in `__all__`,
    star-imported with its module) while one of them binds some class of the package
    (where none does, as in demucs, the package does not say which classes are public:
    its models are imported from their modules), and is called (or handed to `functools.partial`)
    inside a class or function of the package's modules other than itself (tests,
    module-level code such as a `__main__` demo, scripts beside the package's modules,
    and its `examples`/`demos`/`recipes`/`scripts` subpackages aside), never with
    arguments forwarded wholesale (`Cls(*args, **kwargs)`, or `partial(Cls, ...)` called
    later with what the model cannot see: a class built from its caller's own arguments
    is that caller's public face; reviewers judged the `forward` checks of such classes
    correct fixes five times in seven, dalle2's and imagen's `ResnetBlock`)."""
    module, _, local = qualified.rpartition(".")
    top = qualified.split(".", 1)[0]
    if not module or module == top:
        return ""
    facts = project.module(module)
    if facts is None or facts.path.endswith("__init__.py") or local not in facts.classes:
        return ""
    exported, declares = _exports(project, module, qualified)
    if exported or not declares:
        return ""
    mine = []
    for callee, found in json.loads(
            project.derived(INSTANTIATIONS, f"{top}:{local}") or "{}").items():
        if callee == qualified or project.canonical(callee) == qualified:
            mine += found
    builders = sorted({call["by"] for call in mine if call["by"] != qualified
                       and call["by"] != module and not call["by"].startswith(qualified + ".")})
    if not builders or any(call["forwards"] for call in mine):
        return ""
    init = facts.classes[local].methods.get("__init__")
    literal = [] if init is None else [
        parameter.name for index, parameter in enumerate(init.parameters[1:])
        if parameter.kind in (ParameterKind.POSITIONAL, ParameterKind.KEYWORD_ONLY)
        and all(_literal_or_default(call, index, parameter) for call in mine)]
    named = [] if init is None else [
        (index, parameter) for index, parameter in enumerate(init.parameters[1:])
        if parameter.kind in (ParameterKind.POSITIONAL, ParameterKind.KEYWORD_ONLY)]
    passed = [{"given": sorted(parameter.name for index, parameter in named
                               if _given(call, index, parameter)),
               "there": sorted(parameter.name for index, parameter in named
                               if _there_in_call(call, index, parameter))}
              for call in mine]
    return json.dumps({"by": builders[0], "literal": literal, "passed": passed})


def _given(call: dict[str, Any], index: int, parameter: Parameter) -> bool:
    """Whether the call passes `parameter` (at `index` after `self`) at all."""
    return ((parameter.kind is ParameterKind.POSITIONAL and index < len(call["positional"]))
            or parameter.name in call["keywords"])


def _there_in_call(call: dict[str, Any], index: int, parameter: Parameter) -> bool:
    """Whether the call passes `parameter` a value that is not None by construction
    (records an older torchfix remembered say nothing of it: not known)."""
    positional = call.get("there_positional", [])
    if parameter.kind is ParameterKind.POSITIONAL and index < len(positional):
        return bool(positional[index])
    return bool(call.get("there_keywords", {}).get(parameter.name))


def _literal_or_default(call: dict[str, Any], index: int, parameter: Parameter) -> bool:
    """Whether the call passes `parameter` (at `index` after `self`) a literal, or leaves
    it to its default."""
    positional = call["positional"]
    if parameter.kind is ParameterKind.POSITIONAL and index < len(positional):
        return bool(positional[index])
    if parameter.name in call["keywords"]:
        return bool(call["keywords"][parameter.name])
    return parameter.has_default


def unexported(project: Project, module: str, name: str) -> bool:
    """Whether the top-level def or class `name` of the package module `module` (a
    subpackage's `__init__.py` too) is left out of the package's API: no `__init__.py` of
    the public packages above binds it, star-imports its module or binds the module itself
    (`from . import transforms`), while one of them binds some class of the package
    (declares what is public; where none does, as in demucs, nothing says). Round 27
    read such functions' checks as internal invariants: megablocks' `act_fn` and `gelu`,
    called only by its own layers with what they built; onnx2pytorch's
    `Split.set_input_indices`, called by nothing the package ships."""
    if "." not in module or project.module(module) is None:
        return False
    exported, declares = _exports(project, module, f"{module}.{name}")
    if exported or not declares:
        return False
    parts = module.split(".")
    for length in range(1, len(parts)):
        if _private(parts[:length]):
            continue
        package = project.module(".".join(parts[:length]))
        if package is not None and module in package.names.values():
            return False
    return True


def _private(parts: list[str]) -> bool:
    """Whether a package is private by its name or a parent's (`geomloss._backends`): what
    its `__init__.py` binds is gathered for the library's own use, not exported. A
    private *module* below a public package (`captum.attr._core`) is no such package: the
    public `__init__.py` above it still decides."""
    return any(part.startswith("_") for part in parts)


def _exports(project: Project, module: str, qualified: str) -> tuple[bool, bool]:
    """(whether an `__init__.py` of a package above `module` binds the class, whether any
    of them binds a class of the package at all: declares which classes are public)."""
    top = module.split(".", 1)[0]
    parts = module.split(".")
    declares = False
    for length in range(1, len(parts)):
        package = ".".join(parts[:length])
        facts = project.module(package)
        if facts is None or _private(parts[:length]):
            continue
        declares = declares or bool(facts.classes)
        local = qualified.rsplit(".", 1)[1]
        for bound, target in facts.names.items():
            # Only a binding of the class's own name can be the class (resolving every
            # name an `__init__` binds reads every module of the package).
            if target == qualified or (local in (bound, target.rsplit(".", 1)[-1])
                                       and project.canonical(target) == qualified):
                return True, True
            declares = declares or (target.startswith(top + ".")
                                    and target.rsplit(".", 1)[-1][:1].isupper()
                                    and project.class_facts(target) is not None)
        for star in facts.star_imports:
            # The class's own module star-imported (timm's `from .vit import *`); a class
            # re-exported through another module's star import is not followed: reading
            # every star-imported module for every class cost seconds on timm.
            if star == module:
                return True, True
            if not declares:
                starred = project.module(star)
                declares = starred is not None and bool(starred.classes)
    return False, declares


def instantiations(project: Project, name: str) -> str:
    """Every call of a class of the top-level package `top` in its modules (tests, hidden
    and build folders aside), as JSON: {called name: [{"by": the outermost class, else
    function, around the call (the module for module-level code), "forwards": whether it
    passes `*args` or `**kwargs`, "positional": [literal or not, each positional
    argument], "keywords": {name: literal or not}, "there_positional" and
    "there_keywords": likewise, whether the value is not None by construction}]}; the
    called names as the calling
    module imports them (a re-export is resolved by `component`)."""
    top, _, local = name.partition(":")
    path = project.module_path(top)
    if path is None or path.name != "__init__.py":
        return ""
    memo = project.memo(INSTANTIATIONS.replace("/", "-"))
    found: dict[str, list[dict[str, Any]]] = {}
    word = local.encode()
    for file in project_modules(path.parent):
        # Only modules whose text names the class can build it (an alias is imported
        # under its name too): most of a package is never parsed for one class.
        if word not in _source(file):
            continue
        calls = (_calls(file, top) if memo is None
                 else memo.result(file, f"{top}:{file}", lambda f: _calls(f, top)))
        for callee, call in calls:
            found.setdefault(callee, []).append(call)
    if memo is not None:
        memo.save()
    return json.dumps(dict(sorted(found.items())), sort_keys=True)


# Module sources and calls read once per process and state of the file (several classes
# ask about one package; a language server sees the files change): by path, the latest
# state only, so a long-running server keeps one entry a file.
_SOURCES: dict[Path, tuple[tuple[int, int], bytes]] = {}
_CALLS: dict[tuple[Path, str], tuple[tuple[int, int], list[list[Any]]]] = {}


def _stamp(path: Path) -> tuple[int, int]:
    try:
        status = path.stat()
    except OSError:
        return -1, -1
    return status.st_mtime_ns, status.st_size


def _source(path: Path) -> bytes:
    stamp = _stamp(path)
    known = _SOURCES.get(path)
    if known is None or known[0] != stamp:
        try:
            data = path.read_bytes()
        except OSError:
            data = b""
        known = _SOURCES[path] = (stamp, data)
    return known[1]


def _calls(path: Path, top: str) -> list[list[Any]]:
    """[called name, the call (see `instantiations`)] for each call in the module at
    `path` of a name of the package `top` (or of `functools.partial` with one first)."""
    stamp = _stamp(path)
    known = _CALLS.get((path, top))
    if known is None or known[0] != stamp:
        known = _CALLS[path, top] = (stamp, _read_calls(path, top))
    return known[1]


def _read_calls(path: Path, top: str) -> list[list[Any]]:
    name = module_name_for(path)
    if not name.name.startswith(top + ".") or any(
            part in _USER_CODE for part in name.name.split(".")):
        return []  # not a module of the package (a script beside it), or a demo
    data = _source(path)
    if not data:
        return []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(data, str(path))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    from torchfix.model.semantic import NOT_LITERAL, SemanticModel

    model = SemanticModel(tree, name.name, name.is_package)
    found: list[list[Any]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        target, arguments = node.func, node.args
        partial = model.qualified_name(target) == "functools.partial" and bool(node.args)
        if partial:
            target, arguments = node.args[0], node.args[1:]
        for choice in _chosen_classes(model, target):
            called = model.qualified_name(choice)
            if (called is None or not called.startswith(top + ".")
                    or not called.rsplit(".", 1)[-1][:1].isupper()
                    or _local_function(model, choice)):
                continue  # only what may be a class of the package: `CapWords` names
            # `Cls(*args, **kwargs)`, or `partial(Cls, ...)`, called later with more
            forwards = partial or any(
                isinstance(argument, ast.Starred) for argument in arguments) or any(
                keyword.arg is None for keyword in node.keywords)
            found.append([called, {
                "by": _builder(model, node),
                "forwards": forwards,
                "positional": [model.literal(argument) is not NOT_LITERAL
                               for argument in arguments],
                "keywords": {keyword.arg: model.literal(keyword.value) is not NOT_LITERAL
                             for keyword in node.keywords if keyword.arg is not None},
                "there_positional": [_there(model, argument) for argument in arguments],
                "there_keywords": {keyword.arg: _there(model, keyword.value)
                                   for keyword in node.keywords if keyword.arg is not None},
            }])
    return found


# Expressions whose value is never None: displays, arithmetic, f-strings, lambdas.
_NEVER_NONE = (ast.Tuple, ast.List, ast.Dict, ast.Set, ast.ListComp, ast.SetComp,
               ast.DictComp, ast.GeneratorExp, ast.BinOp, ast.JoinedStr, ast.Lambda)


def _there(model: SemanticModel, value: ast.expr, hops: int = 1) -> bool:
    """Whether `value` is not None by construction: a constant other than None, a
    display, arithmetic (`image_size // 2`), an f-string, or a local every binding of
    which is one (nuwa's `video_shape = (frames, fmap_size, fmap_size)`). A parameter of
    the builder is not: its caller may pass None."""
    if isinstance(value, ast.Constant):
        return value.value is not None
    if isinstance(value, _NEVER_NONE):
        return True
    if not isinstance(value, ast.Name) or hops < 0:
        return False
    bindings = model.bindings(value)
    return bool(bindings) and all(
        binding.kind is BindingKind.ASSIGNMENT and binding.value is not None
        and not binding.augmented and _there(model, binding.value, hops - 1)
        for binding in bindings)


def _chosen_classes(model: SemanticModel, called: ast.expr) -> list[ast.expr]:
    """What a call may build: `called` itself, or, for a local bound once to a choice
    of classes (nuwa's `dec_transformer_klass = ReversibleTransformer if reversible else
    Transformer`, then `dec_transformer_klass(...)`), each class it may be."""
    if not isinstance(called, ast.Name):
        return [called]
    binding = model.binding(called)
    value = binding.value if binding is not None else None
    if (binding is None or binding.kind is not BindingKind.ASSIGNMENT
            or not isinstance(value, ast.IfExp)):
        return [called]
    return [choice for choice in (value.body, value.orelse)
            if isinstance(choice, ast.Name | ast.Attribute)]


def _local_function(model: SemanticModel, called: ast.expr) -> bool:
    """Whether `called` names a function of its own module (no class to build)."""
    if not isinstance(called, ast.Name):
        return False
    binding = model.binding(called)
    return binding is not None and binding.kind is BindingKind.FUNCTION


def _builder(model: SemanticModel, node: ast.AST) -> str:
    """The qualified name of the outermost class around `node`, else of its outermost
    function, else of its module."""
    classes: list[str] = []
    functions: list[str] = []
    for ancestor in model.ancestors(node):
        if isinstance(ancestor, ast.ClassDef):
            classes.append(ancestor.name)
        elif isinstance(ancestor, ast.FunctionDef | ast.AsyncFunctionDef):
            functions.append(ancestor.name)
    outer = classes or functions
    module = model.module or ""
    return f"{module}.{outer[-1]}" if outer else module


register_derived_fact(INSTANTIATIONS, instantiations)
register_derived_fact(COMPONENT, component)
