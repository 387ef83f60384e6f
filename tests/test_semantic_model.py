"""The semantic model's answers that codemods rely on."""

from __future__ import annotations

import ast

from torchfix.model.semantic import ScopeKind, SemanticModel


def _model(source: str) -> SemanticModel:
    return SemanticModel(ast.parse(source), "mod")


def test_string_annotations_are_parsed_with_the_scope_they_resolve_in():
    model = _model(
        "from typing import Literal, Optional\n"
        "from torch.amp import GradScaler\n"
        "from torch import amp\n"
        "\n"
        "class Trainer:\n"
        "    scaler: 'GradScaler'\n"
        "    def fresh(self, mode: Literal['cuda'], old: Optional['GradScaler'] = None)"
        " -> 'amp.GradScaler':\n"
        "        local: 'int' = 1\n"
        "        self.other: 'GradScaler' = old\n"
        "        return amp.GradScaler(mode)\n"
    )
    found = [(constant.value, ast.unparse(expression), model.scope_of(constant).kind)
             for constant, expression in model.string_annotations()]
    assert sorted(found, key=lambda item: item[:2]) == sorted([
        ("GradScaler", "GradScaler", ScopeKind.CLASS),  # a class-body annotation
        ("GradScaler", "GradScaler", ScopeKind.CLASS),  # Optional['GradScaler'], in the def
        ("amp.GradScaler", "amp.GradScaler", ScopeKind.CLASS),  # the return annotation
        ("int", "int", ScopeKind.FUNCTION),
        ("GradScaler", "GradScaler", ScopeKind.FUNCTION),  # self.other: 'GradScaler'
    ], key=lambda item: item[:2])  # 'cuda' in Literal[...] is a value, not an annotation


def test_string_annotations_that_do_not_parse_are_left_out():
    model = _model("def f(x: 'not valid python(') -> 'int': ...\n")
    assert [constant.value for constant, _ in model.string_annotations()] == ["int"]
