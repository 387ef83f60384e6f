"""require-grad-typo: `x.require_grad = ...` sets nothing torch reads (TorchFix TOR002)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from torchfix.model.ast_index import nodes_of
from torchfix.model.project import Project, register_derived_fact
from torchfix.model.scan_memo import project_modules
from torchfix.rewrite.contract import Codemod, FileContext, Finding, ReplaceNode, Safety

TYPO = "require_grad"
# "<codemod>/<fact>" (see `register_derived_fact`): where the project uses `require_grad`
# as a name of its own, "path:line", or "".
OWN_NAME = "require-grad-typo/own-name"


class RequireGradTypo(Codemod):
    """Fix the `require_grad` typo: torch's flag is `requires_grad`.

    ## What it does
    Renames the attribute in assignments such as `param.require_grad = False` to
    `requires_grad`.

    ## Why
    Tensors accept any attribute, so `param.require_grad = False` raises nothing and
    freezes nothing: the parameter keeps training, which shows up (if at all) as a model
    that fine-tunes layers it should not, or as memory spent on gradients nobody wanted.

    ## Example
    ```python
    for param in backbone.parameters():
        param.require_grad = False
    ```
    becomes
    ```python
    for param in backbone.parameters():
        param.requires_grad = False
    ```

    ## Fix safety
    **Unsafe**: the fix is what the code says it wants, but it makes the assignment take
    effect, so which parameters train changes, and code written around the no-op may
    rely on it (dffml's pretrained model trained the layer its typo meant to freeze;
    frozen, nothing needed a gradient). Where the project also reads `.require_grad`,
    or takes a parameter or declares an attribute of that name (an attribute of a class
    of your own, spelled that way on purpose), the assignment is only reported. TorchFix
    code: TOR002.
    """

    name = "require-grad-typo"
    summary = "Fix `x.require_grad = ...` (a no-op typo) to `x.requires_grad = ...`."
    triggers = (TYPO.encode(),)
    fix_safety = "unsafe"
    codes = ("TOR002",)
    family = "correctness"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {node.lineno for node in nodes_of(tree, ast.Attribute) if node.attr == TYPO}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        attributes = [node for node in nodes_of(file.tree, ast.Attribute) if node.attr == TYPO]
        read = any(isinstance(node.ctx, ast.Load) for node in attributes)
        own = "" if read or not any(isinstance(node.ctx, ast.Store) for node in attributes) \
            else file.project.derived(OWN_NAME, str(file.project.root))
        for node in attributes:
            if not isinstance(node.ctx, ast.Store):
                continue
            if read:
                yield Finding(node, "`.require_grad` is also read in this file: if it is not "
                              "an attribute of your own, torch's flag is `requires_grad`",
                              Safety.MANUAL)
                continue
            if own:
                yield Finding(node, f"the project uses `require_grad` as a name of its own "
                              f"({own}): if this is not such an attribute, torch's flag is "
                              "`requires_grad`", Safety.MANUAL)
                continue
            computed = _computed_by(file, node)
            if computed is not None:
                yield Finding(node, "`require_grad` is a typo for `requires_grad`, but the "
                              f"tensor comes from {computed}: where that is computed from "
                              "tensors that need gradients, it is no leaf, and setting "
                              "`requires_grad` on it raises RuntimeError", Safety.MANUAL)
                continue
            # Unsafe: the fix makes the assignment take effect, so what trains changes;
            # dffml's pretrained model (round 50) trained the very layer its typo meant
            # to freeze, and frozen, nothing needed a gradient and backward() raised.
            yield Finding(node, "`require_grad` is a typo: torch reads `requires_grad`, so "
                          "this assignment changes nothing (unsafe: fixed, it takes effect, "
                          "and which parameters train changes)", Safety.UNSAFE,
                          (ReplaceNode(node, f"{file.source(node.value)}.requires_grad"),))


# torch calls whose result is a leaf tensor: setting `requires_grad` on it works.
LEAF_MAKERS = frozenset({"tensor", "as_tensor", "from_numpy", "zeros", "ones", "empty", "full",
                         "rand", "randn", "randint", "arange", "linspace", "eye",
                         "zeros_like", "ones_like", "empty_like", "full_like", "rand_like",
                         "randn_like", "Parameter"})


def _computed_by(file: FileContext, node: ast.Attribute) -> str | None:
    """The call a local tensor set `require_grad = True` comes from (`trans_hidden =
    self.hidden.transform(hidden_sample_positive)`), where that call is neither a torch
    factory nor `.detach()`: pytorch-probgraph's RBM (round 56) samples it from the model's
    weights, a tensor with a history, and the fixed assignment raised on every step.
    None where the value is False, or the tensor is not such a local."""
    statement = file.semantic.parent(node)
    if not (isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant)
            and statement.value.value is True and isinstance(node.value, ast.Name)):
        return None
    bindings = file.semantic.bindings(node.value)
    values = [binding.value for binding in bindings]
    if len(values) != 1 or not isinstance(values[0], ast.Call):
        return None
    call = values[0]
    for inner in ast.walk(call.func):
        if isinstance(inner, ast.Attribute) and inner.attr in ("detach", "detach_"):
            return None
    meaning = file.semantic.qualified_name(call.func) or ""
    if meaning.startswith("torch.") and meaning.rsplit(".", 1)[-1] in LEAF_MAKERS:
        return None
    return f"`{ast.unparse(call.func)}(...)`"


def own_name(project: Project, root: str) -> str:
    """Where a module of the project reads `.require_grad`, or takes a parameter or
    declares a class attribute of that name (mtorch, a NumPy autograd library whose own
    `Tensor(data, require_grad=False)` keeps `self.require_grad` and whose `Module` reads
    it, round 49: renaming its assignment broke every layer), as "path:line"; "" where
    none does. Only modules holding the word are parsed; each answer is remembered by
    the scan memo."""
    memo = project.memo(OWN_NAME.replace("/", "-"))

    def place(path: Path) -> int:
        try:
            source = path.read_bytes()
        except OSError:
            return 0
        if TYPO.encode() not in source:
            return 0
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            return 0
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr == TYPO
                    and isinstance(node.ctx, ast.Load)) or (
                    isinstance(node, ast.arg) and node.arg == TYPO) or (
                    isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                    and node.target.id == TYPO):
                return node.lineno
        return 0

    try:
        for path in project_modules(Path(root)):
            line = place(path) if memo is None else memo.result(path, str(path), place)
            if line:
                return f"{path.relative_to(root).as_posix()}:{line}"
        return ""
    finally:
        if memo is not None:
            memo.save()


register_derived_fact(OWN_NAME, own_name)

