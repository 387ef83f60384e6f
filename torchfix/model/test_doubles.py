"""What a test module stands a double in for: the qualified names its mocks and
monkeypatches replace. A fix that changes how the project calls such a name can fail the
test whose double takes the old arguments, though the real function takes the new ones
(torch-mpo's `monkeypatch.setattr(tv_models, "vgg16", lambda pretrained=True: ...)`,
round 53), or that checks what the mock was handed (torchbearer's `patch("torch.save")`)."""

from __future__ import annotations

import ast

from torchfix.model.ast_index import nodes_of
from torchfix.model.ast_names import dotted_name
from torchfix.model.semantic import SemanticModel

# The last name of the call that replaces: `patch(...)`, `mocker.patch(...)`,
# `monkeypatch.setattr(...)`, `setattr(...)`; `patch.object(...)`, `patch.multiple(...)`
# name the owner as the first argument, like `setattr`.
BY_STRING = frozenset({"patch", "setattr"})
BY_OWNER = frozenset({"object", "setattr", "multiple"})


def replaced_names(tree: ast.Module) -> list[tuple[str, int]]:
    """The qualified names the module replaces, each with the line of the call, in line
    order: `patch("torch.save")` (also as a decorator, and through `mocker`),
    `monkeypatch.setattr("torch.save", f)`, `patch.object(torch, "save")`,
    `monkeypatch.setattr(torchvision.models, "vgg16", f)`. An owner is read through the
    module's imports (`import torchvision.models as tv_models`, in a test function too);
    a string target is taken as written (`"package.module.torch.save"` replaces torch.save
    as that module sees it)."""
    semantic: SemanticModel | None = None
    found: list[tuple[str, int]] = []
    for call in sorted(nodes_of(tree, ast.Call), key=lambda node: node.lineno):
        callee = dotted_name(call.func) or ""
        last = callee.rsplit(".", 1)[-1]
        strings = [argument.value if isinstance(argument, ast.Constant)
                   and isinstance(argument.value, str) else None for argument in call.args[:2]]
        if last in BY_STRING and strings[:1] and strings[0] and "." in strings[0]:
            found.append((strings[0], call.lineno))
        elif last in BY_OWNER and len(strings) == 2 and strings[0] is None and strings[1]:
            if semantic is None:
                semantic = SemanticModel(tree)
            owner = semantic.qualified_name(call.args[0]) or dotted_name(call.args[0])
            if owner:
                found.append((f"{owner}.{strings[1]}", call.lineno))
    return found
