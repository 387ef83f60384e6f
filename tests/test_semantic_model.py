"""The shared semantic model: what names mean, by Python's scoping rules."""

from __future__ import annotations

import ast
import textwrap

from torchfix.model.semantic import NOT_LITERAL, BindingKind, ScopeKind, SemanticModel


def model_of(source: str, module: str | None = "pkg.sub.mod", is_package: bool = False):
    tree = ast.parse(textwrap.dedent(source))
    return tree, SemanticModel(tree, module, is_package)


def loads(tree: ast.Module, name: str) -> list[ast.Name]:
    return [n for n in ast.walk(tree)
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]


def attribute(tree: ast.Module, text: str) -> ast.expr:
    return next(n for n in ast.walk(tree)
                if isinstance(n, (ast.Attribute, ast.Name)) and ast.unparse(n) == text)


def test_imports_and_aliases_qualify_names():
    tree, model = model_of("""
        import torch
        import torch.cuda.amp as torch_amp
        from torch.cuda.amp import GradScaler as GS
        import numpy as np
        amp = torch.cuda.amp
        x = torch_amp.autocast
        y = GS
        z = np.asarray
        w = amp.custom_fwd
    """)
    assert model.qualified_name(attribute(tree, "torch_amp.autocast")) == \
        "torch.cuda.amp.autocast"
    assert model.qualified_name(loads(tree, "GS")[0]) == "torch.cuda.amp.GradScaler"
    assert model.qualified_name(attribute(tree, "np.asarray")) == "numpy.asarray"
    # An alias made by assignment is followed: `amp = torch.cuda.amp`.
    assert model.qualified_name(attribute(tree, "amp.custom_fwd")) == "torch.cuda.amp.custom_fwd"


def test_relative_imports_resolve_against_the_module_name():
    _, model = model_of("""
        from . import sibling
        from ..other import helper
        from .impl import Thing
    """)
    names = {b.name: b.qualified_name for b in model.imported_names()}
    assert names == {"sibling": "pkg.sub.sibling", "helper": "pkg.other.helper",
                     "Thing": "pkg.sub.impl.Thing"}
    _, package = model_of("from .impl import Thing", module="pkg.sub", is_package=True)
    assert package.imported_names()[0].qualified_name == "pkg.sub.impl.Thing"
    _, script = model_of("from .impl import Thing", module=None)
    assert script.imported_names()[0].qualified_name is None  # unknowable


def test_builtins_local_variables_and_definitions():
    tree, model = model_of("""
        def f(x):
            y = len(x)
            return isinstance(y, int)

        class Net:
            pass

        print(Net, f)
    """)
    assert model.qualified_name(loads(tree, "isinstance")[0]) == "builtins.isinstance"
    assert model.qualified_name(loads(tree, "y")[0]) is None  # a local variable
    assert model.qualified_name(loads(tree, "x")[0]) is None  # a parameter
    assert model.qualified_name(loads(tree, "Net")[0]) == "pkg.sub.mod.Net"
    assert model.qualified_name(loads(tree, "f")[0]) == "pkg.sub.mod.f"


def test_a_shadowed_builtin_is_not_the_builtin():
    tree, model = model_of("""
        def any(values):
            return values

        def g(x) -> None:
            return any(x)
    """)
    assert model.qualified_name(loads(tree, "any")[0]) == "pkg.sub.mod.any"


def test_class_bodies_are_not_visible_from_their_methods_or_comprehensions():
    tree, model = model_of("""
        class Config:
            scale = 2
            doubled = scale * 2
            def method(self):
                return scale
            listed = [scale for _ in range(3)]
    """)
    in_body, in_method, in_comprehension = loads(tree, "scale")
    assert [b.kind for b in model.bindings(in_body)] == [BindingKind.ASSIGNMENT]
    assert model.bindings(in_method) == []
    assert model.bindings(in_comprehension) == []


def test_function_locals_globals_and_nonlocals():
    tree, model = model_of("""
        import torch

        def outer():
            torch = None
            def inner():
                nonlocal torch
                return torch
            return inner

        def uses_global():
            global torch
            return torch.zeros(1)
    """)
    nonlocal_read, global_read = loads(tree, "torch")
    assert model.qualified_name(nonlocal_read) is None  # the local None of `outer`
    assert model.qualified_name(global_read) == "torch"


def test_defaults_annotations_and_decorators_belong_to_the_enclosing_scope():
    tree, model = model_of("""
        import torch

        def f(torch: torch.Tensor = torch.zeros(1)):
            return torch

        class C:
            Tensor = int
            def m(self, x: Tensor) -> Tensor:
                return x
    """)
    annotation, default = attribute(tree, "torch.Tensor"), attribute(tree, "torch.zeros")
    body = tree.body[1].body[0].value  # `return torch`
    assert model.qualified_name(annotation) == "torch.Tensor"
    assert model.qualified_name(default) == "torch.zeros"
    assert model.qualified_name(body) is None  # the parameter
    # An annotation in a method reads the class body (it is evaluated there).
    assert [b.kind for b in model.bindings(loads(tree, "Tensor")[0])] == [BindingKind.ASSIGNMENT]


def test_conditional_imports_of_different_things_are_ambiguous():
    tree, model = model_of("""
        try:
            from torch.amp import GradScaler
        except ImportError:
            from torch.cuda.amp import GradScaler
        scaler = GradScaler()
    """)
    assert model.qualified_name(loads(tree, "GradScaler")[0]) is None


def test_the_binding_a_read_sees_is_the_last_one_before_it():
    tree, model = model_of("""
        def f(model, make):
            model = make()
            model.eval()
    """)
    read = loads(tree, "model")[0]
    assert model.binding(read).kind is BindingKind.ASSIGNMENT
    assert [b.kind for b in model.bindings(read)] == [BindingKind.PARAMETER,
                                                        BindingKind.ASSIGNMENT]


def test_binding_kinds_values_and_annotations():
    tree, model = model_of("""
        import torch
        def f(a: int, b=3, *args, c, **kwargs):
            x: torch.Tensor = torch.zeros(1)
            y: int
            for i, (j, k) in enumerate(args):
                pass
            with open(a) as handle:
                pass
            try:
                pass
            except ValueError as error:
                pass
            if (n := 3):
                pass
            total = [z for z in args]
            x += 1
    """)
    function = model.scope_created_by(tree.body[1])
    kinds = {name: [b.kind for b in bindings] for name, bindings in function.bindings.items()}
    assert kinds["a"] == [BindingKind.PARAMETER]
    assert kinds["x"] == [BindingKind.ASSIGNMENT, BindingKind.ASSIGNMENT]
    assert kinds["y"] == [BindingKind.ANNOTATION]
    assert kinds["i"] == kinds["j"] == kinds["k"] == [BindingKind.LOOP]
    assert kinds["handle"] == [BindingKind.WITH]
    assert kinds["error"] == [BindingKind.EXCEPT]
    assert kinds["n"] == [BindingKind.ASSIGNMENT]
    assert "z" not in kinds  # it lives in the comprehension's own scope
    b = function.bindings["b"][0]
    assert isinstance(b.value, ast.Constant) and b.value.value == 3
    assert ast.unparse(function.bindings["x"][0].annotation) == "torch.Tensor"
    assert function.bindings["x"][1].augmented


def test_literals_follow_module_constants_once_bound():
    tree, model = model_of("""
        MASK = -1e4
        PAIR = (1, -2)
        CHANGED = 1
        CHANGED = 2
        def f():
            return MASK, PAIR, CHANGED, 1 + 2
    """)
    values = tree.body[-1].body[0].value.elts
    assert model.literal(values[0]) == -1e4
    assert model.literal(values[1]) == (1, -2)
    assert model.literal(values[2]) is NOT_LITERAL  # bound twice: not a constant
    assert model.literal(values[3]) is NOT_LITERAL


def test_structure_questions():
    tree, model = model_of("""
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            import numpy
        class Trainer:
            def step(self):
                try:
                    self.run()
                except RuntimeError:
                    pass
    """)
    numpy_import = tree.body[1].body[0]
    assert model.in_type_checking_block(numpy_import)
    run = attribute(tree, "self.run")
    assert model.enclosing_function(run).name == "step"
    assert model.enclosing_class(run).name == "Trainer"
    assert model.function_path(run) == ("Trainer", "step")
    assert model.in_try(run) is not None
    assert isinstance(model.statement(run), ast.Expr)
    assert model.scope_of(run).kind is ScopeKind.FUNCTION


def test_references_of_a_binding():
    _, model = model_of("""
        import torch
        def f():
            return torch.ones(1) + torch.zeros(1)
        def g(torch):
            return torch
    """)
    imported = model.module_scope.bindings["torch"][0]
    assert len(model.references(imported)) == 2  # `g`'s parameter shadows it


def test_exported_names():
    _, model = model_of("__all__ = ['a', 'b']\n")
    assert model.exported_names() == {"a", "b"}



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
