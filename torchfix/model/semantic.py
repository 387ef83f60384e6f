"""The semantic model of one file: scopes, bindings, imports and qualified names.

Built once per file from CPython's `ast` and shared by every codemod, the role ruff's
semantic model plays for its rules. A codemod asks what an expression *is*
(`qualified_name(call.func) == "torch.load"`) or what a name is bound to, instead of
guessing from its spelling or keeping a private binding analysis.

Python's scoping rules are followed: names in a function body are local if bound
anywhere in it (unless declared `global`/`nonlocal`); class bodies are not visible from
the functions nested in them; default values, annotations, decorators and class bases
are evaluated in the enclosing scope; the first `for` of a comprehension too.
"""

from __future__ import annotations

import ast
import builtins
import enum
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from torchfix.model.ast_index import per_tree

BUILTINS = frozenset(dir(builtins))


class ScopeKind(enum.Enum):
    MODULE = "module"
    CLASS = "class"
    FUNCTION = "function"
    LAMBDA = "lambda"
    COMPREHENSION = "comprehension"


class BindingKind(enum.Enum):
    IMPORT = "import"  # import a.b [as c]
    FROM_IMPORT = "from-import"  # from a import b [as c]
    ASSIGNMENT = "assignment"  # x = v, x += v, x: T = v, (x := v), tuple unpacking
    ANNOTATION = "annotation"  # x: T (no value)
    PARAMETER = "parameter"
    FUNCTION = "function"
    CLASS = "class"
    LOOP = "loop"  # for x in ...
    WITH = "with"  # with ... as x
    EXCEPT = "except"  # except E as x
    COMPREHENSION = "comprehension"  # [... for x in ...]
    DELETION = "deletion"  # del x
    MATCH = "match"  # case Point(x=x)
    TYPE_PARAMETER = "type-parameter"  # def f[T](...)


# The fields of a node that hold a list of statements (or, for `handlers`, of a try's
# except clauses): what `SemanticModel.block_of` looks in.
_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers")

@dataclass(eq=False)
class Binding:
    """One place where a name is bound."""

    name: str
    kind: BindingKind
    node: ast.AST  # the Name, alias, arg, def, class or handler that binds it
    scope: Scope = field(repr=False)
    statement: ast.stmt | None = field(repr=False)
    # What the name then refers to, where that is known statically: the module or object
    # an import binds ("torch.cuda.amp"), the qualified name of a def or class of this file.
    qualified_name: str | None = None
    value: ast.expr | None = None  # x = value, x: T = value, (x := value), a parameter's default
    annotation: ast.expr | None = None
    augmented: bool = False  # x += ...: reads the old value too

    @property
    def line(self) -> int:
        return getattr(self.node, "lineno", 0) or getattr(self.statement, "lineno", 0)

    @property
    def position(self) -> tuple[int, int]:
        return (self.line, getattr(self.node, "col_offset", 0))

    @property
    def is_import(self) -> bool:
        return self.kind in (BindingKind.IMPORT, BindingKind.FROM_IMPORT)


@dataclass(eq=False)
class Scope:
    """One scope of a module (the module, a class, a function) and its bindings."""

    kind: ScopeKind
    node: ast.AST
    parent: Scope | None = field(repr=False)
    bindings: dict[str, list[Binding]] = field(default_factory=dict, repr=False)
    global_names: set[str] = field(default_factory=set)
    nonlocal_names: set[str] = field(default_factory=set)
    star_imports: list[str] = field(default_factory=list)  # modules imported with `*`

    def local(self, name: str) -> list[Binding]:
        return self.bindings.get(name, [])

    @property
    def is_function(self) -> bool:
        return self.kind in (ScopeKind.FUNCTION, ScopeKind.LAMBDA)


_FUNCTION_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSION_TYPES = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_TRY_TYPES: tuple[type, ...] = (ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))
# Fields whose values are shared singletons (Load, Add, Eq, ...): nothing to record there.
_SINGLETON_FIELDS = frozenset({"ctx", "op", "ops"})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
# How many assignments `x = y` a qualified name follows (x → y → torch.cuda.amp).
_ALIAS_DEPTH = 4


class SemanticModel:
    """Scopes, bindings, parents and qualified names of one module's tree."""

    def __init__(self, tree: ast.Module, module: str | None = None,
                 is_package: bool = False) -> None:
        self.tree = tree
        # The dotted name of this module ("pkg.sub.mod"), when known: relative imports and
        # the file's own definitions are qualified with it.
        self.module = module
        self.is_package = is_package
        self.module_scope = Scope(ScopeKind.MODULE, tree, None)
        self.scopes: list[Scope] = [self.module_scope]
        self._parents: dict[int, ast.AST] = {}
        self._scope_of: dict[int, Scope] = {}
        self._node_scope: dict[int, Scope] = {}  # a def/class/lambda/comprehension → its scope
        self.loads: list[tuple[ast.Name, Scope]] = []
        self._references: dict[int, list[ast.Name]] | None = None
        self._statements: list[ast.stmt | None] = [None]
        self._annotated: list[ast.AnnAssign] = []
        # `x.attr = v` / `x.attr: T = v` statements, with the scope they run in (`self.x =
        # ...` in methods: what the project model records of a class's attributes).
        self._attribute_assignments: list[tuple[ast.Assign | ast.AnnAssign, Scope]] = []
        self._attribute_assignments_by_scope: dict[int, list[ast.Assign | ast.AnnAssign]] \
            | None = None
        self._string_annotations: list[tuple[ast.Constant, ast.expr]] | None = None
        _Builder(self).build()

    # -- structure -----------------------------------------------------------------------

    def parent(self, node: ast.AST) -> ast.AST | None:
        return self._parents.get(id(node))

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        current = self._parents.get(id(node))
        while current is not None:
            yield current
            current = self._parents.get(id(current))

    def block_of(self, node: ast.AST) -> tuple[list[Any], int] | None:
        """The list that holds `node` in its parent (a body, an `else`, a `finally`, a
        `try`'s handlers) and its index there; None for a node held otherwise (an
        expression, a `case`)."""
        parent = self._parents.get(id(node))
        for field_name in _BLOCK_FIELDS:
            block = getattr(parent, field_name, None)
            if isinstance(block, list):
                for index, item in enumerate(block):
                    if item is node:
                        return block, index
        return None

    def statement(self, node: ast.AST) -> ast.stmt | None:
        """The innermost statement holding `node` (the node itself if it is one)."""
        if isinstance(node, ast.stmt):
            return node
        for ancestor in self.ancestors(node):
            if isinstance(ancestor, ast.stmt):
                return ancestor
        return None

    def scope_of(self, node: ast.AST) -> Scope:
        """The scope in which `node` is evaluated (a def's name: the enclosing one)."""
        return self._scope_of.get(id(node), self.module_scope)

    def attribute_assignments(self, scope: Scope) -> list[ast.Assign | ast.AnnAssign]:
        """The statements of `scope` itself (not of functions or classes inside it) that
        assign to an attribute of a name, with one target: `self.net = Net()`,
        `self.net: Net = build()`, in source order."""
        if self._attribute_assignments_by_scope is None:
            by_scope: dict[int, list[ast.Assign | ast.AnnAssign]] = {}
            for statement, where in self._attribute_assignments:
                by_scope.setdefault(id(where), []).append(statement)
            self._attribute_assignments_by_scope = by_scope
        return self._attribute_assignments_by_scope.get(id(scope), [])

    def scope_created_by(self, node: ast.AST) -> Scope | None:
        """The scope a def, class, lambda or comprehension opens."""
        return self._node_scope.get(id(node))

    def enclosing_function(self, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The innermost def whose body holds `node` (lambdas are looked through)."""
        scope: Scope | None = self.scope_of(node)
        while scope is not None:
            if isinstance(scope.node, _FUNCTION_TYPES):
                return scope.node
            if scope.kind is ScopeKind.CLASS:
                return None
            scope = scope.parent
        return None

    def enclosing_class(self, node: ast.AST) -> ast.ClassDef | None:
        """The class whose body (or a method of it) holds `node`: `self`'s class."""
        scope: Scope | None = self.scope_of(node)
        while scope is not None:
            if scope.kind is ScopeKind.CLASS:
                return scope.node  # type: ignore[return-value]
            scope = scope.parent
        return None

    def function_path(self, node: ast.AST) -> tuple[str, ...]:
        """Names of the classes and functions enclosing `node`, outermost first."""
        names: list[str] = []
        scope: Scope | None = self.scope_of(node)
        while scope is not None and scope.kind is not ScopeKind.MODULE:
            if isinstance(scope.node, (*_FUNCTION_TYPES, ast.ClassDef)):
                names.append(scope.node.name)  # type: ignore[union-attr]
            scope = scope.parent
        return tuple(reversed(names))

    def in_type_checking_block(self, node: ast.AST) -> bool:
        """Inside `if TYPE_CHECKING:` (never runs)."""
        child = node
        for ancestor in self.ancestors(node):
            if (isinstance(ancestor, ast.If) and any(child is s for s in ancestor.body)
                    and self.qualified_name(ancestor.test) in
                    ("typing.TYPE_CHECKING", "typing_extensions.TYPE_CHECKING")):
                return True
            child = ancestor
        return False

    def in_try(self, node: ast.AST) -> ast.Try | None:
        """The innermost `try` whose body (not a handler) holds `node`."""
        child = node
        for ancestor in self.ancestors(node):
            if isinstance(ancestor, _TRY_TYPES) and any(
                child is statement for statement in ancestor.body  # type: ignore[attr-defined]
            ):
                return ancestor  # type: ignore[return-value]
            child = ancestor
        return None

    # -- names ---------------------------------------------------------------------------

    def resolving_scope(self, name: str, scope: Scope) -> Scope | None:
        """The scope whose bindings of `name` a read in `scope` sees; None: builtin or unbound."""
        if name in scope.global_names:
            return self.module_scope if name in self.module_scope.bindings else None
        current: Scope | None = scope
        first = True
        while current is not None:
            # A class body is visible only to code directly in it, not to nested functions.
            visible = first or current.kind is not ScopeKind.CLASS
            if visible and name not in current.nonlocal_names and name in current.bindings:
                return current
            if visible and name in current.global_names:
                return self.module_scope if name in self.module_scope.bindings else None
            first = False
            current = current.parent
        return None

    def bindings_of(self, name: str, scope: Scope) -> list[Binding]:
        """Every binding of `name` in the scope a read of it in `scope` sees."""
        resolved = self.resolving_scope(name, scope)
        return resolved.bindings[name] if resolved is not None else []

    def bindings(self, node: ast.Name) -> list[Binding]:
        """Every binding a read of this name may see (all of them in its scope)."""
        return self.bindings_of(node.id, self.scope_of(node))

    def binding(self, node: ast.Name) -> Binding | None:
        """The binding a read of `node` most plausibly sees: the last one before it in its
        scope (in source order), else the last one (a function reading a later global)."""
        found = self.bindings(node)
        if not found:
            return None
        position = (node.lineno, node.col_offset)
        before = [binding for binding in found if binding.position < position]
        return (before or found)[-1]

    def is_builtin(self, node: ast.Name) -> bool:
        return node.id in BUILTINS and not self.bindings(node) and not self._star_imported()

    def _star_imported(self) -> bool:
        return bool(self.module_scope.star_imports)

    def qualified_name(self, expr: ast.AST | None) -> str | None:
        """What `expr` names, fully qualified: `torch_amp.GradScaler` →
        "torch.cuda.amp.GradScaler" after `import torch.cuda.amp as torch_amp`.

        Unbound builtins are "builtins.<name>"; a def or class of this file is
        "<module>.<name>". None for local variables, parameters, calls and anything else
        whose target is not known statically.
        """
        return self._qualified(expr, _ALIAS_DEPTH)

    def _qualified(self, expr: ast.AST | None, depth: int) -> str | None:
        if isinstance(expr, ast.Attribute):
            base = self._qualified(expr.value, depth)
            return f"{base}.{expr.attr}" if base is not None else None
        if not isinstance(expr, ast.Name):
            return None
        found = self.bindings(expr)
        if not found:
            if expr.id in BUILTINS and not self._star_imported():
                return f"builtins.{expr.id}"
            return None
        binding = self.binding(expr)
        if binding is None:
            return None
        if binding.qualified_name is not None:
            # An import bound in both branches of a version check (`try: from torch.amp ...
            # except ImportError: from torch.cuda.amp ...`) is ambiguous: say so.
            names = {b.qualified_name for b in found if b.kind is binding.kind}
            if len(names) > 1 and all(b.is_import for b in found):
                return None
            return binding.qualified_name
        if (
            depth > 0
            and binding.kind is BindingKind.ASSIGNMENT
            and binding.value is not None
            and not binding.augmented
            and len(found) == 1
            and isinstance(binding.value, (ast.Name, ast.Attribute))
        ):
            return self._qualified(binding.value, depth - 1)  # amp = torch.cuda.amp
        return None

    def matches(self, expr: ast.AST | None, *names: str) -> bool:
        """Whether `expr` names one of these qualified names."""
        return self.qualified_name(expr) in names

    def imported_names(self) -> list[Binding]:
        """Every import binding of the file, in every scope, in source order."""
        return sorted(
            (binding for scope in self.scopes for bound in scope.bindings.values()
             for binding in bound if binding.is_import),
            key=lambda binding: binding.position,
        )

    def references(self, binding: Binding) -> list[ast.Name]:
        """The reads of `binding`'s name that resolve to its scope."""
        if self._references is None:
            self._references = {}
            for load, scope in self.loads:
                resolved = self.resolving_scope(load.id, scope)
                if resolved is not None:
                    self._references.setdefault(id(resolved.bindings[load.id]), []).append(load)
        return self._references.get(id(binding.scope.bindings.get(binding.name)), [])

    def string_annotations(self) -> list[tuple[ast.Constant, ast.expr]]:
        """The annotations written as strings, each with the expression the string holds:
        `scaler: "GradScaler"`, `-> "amp.GradScaler"`, `Optional["GradScaler"]` (strings
        in `Literal[...]` are values, not annotations). The names such an expression reads
        resolve in `scope_of(constant)`; its nodes are not part of this model (no parents,
        positions relative to the string). Strings that do not parse are left out."""
        if self._string_annotations is None:
            self._string_annotations = []
            for annotation in self._annotations():
                for constant in self._annotation_strings(annotation):
                    try:
                        parsed = ast.parse(constant.value, mode="eval").body
                    except (SyntaxError, ValueError, RecursionError, MemoryError):
                        continue
                    self._string_annotations.append((constant, parsed))
        return self._string_annotations

    def _annotations(self) -> Iterator[ast.expr]:
        for scope in self.scopes:
            node = scope.node
            if isinstance(node, _FUNCTION_TYPES):
                arguments = node.args
                for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                            arguments.vararg, arguments.kwarg]:
                    if arg is not None and arg.annotation is not None:
                        yield arg.annotation
                if node.returns is not None:
                    yield node.returns
        for statement in self._annotated:  # x: T = v, self.x: T
            yield statement.annotation

    def _annotation_strings(self, annotation: ast.expr) -> Iterator[ast.Constant]:
        stack = [annotation]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Constant):
                if isinstance(node.value, str):
                    yield node
            elif isinstance(node, ast.Subscript) and self.qualified_name(node.value) in (
                    "typing.Literal", "typing_extensions.Literal"):
                continue
            else:
                stack.extend(ast.iter_child_nodes(node))

    def exported_names(self) -> set[str]:
        """The names listed in `__all__`."""
        exported: set[str] = set()
        for binding in self.module_scope.local("__all__"):
            if isinstance(binding.value, (ast.List, ast.Tuple)):
                exported.update(
                    element.value for element in binding.value.elts
                    if isinstance(element, ast.Constant) and isinstance(element.value, str)
                )
        return exported

    # -- values --------------------------------------------------------------------------

    def literal(self, expr: ast.AST | None) -> Any:
        """The value of a literal expression (numbers, strings, -x, tuples), following a
        name bound once, at module level, to one. `NOT_LITERAL` when it is not one."""
        return self._literal(expr, _ALIAS_DEPTH)

    def _literal(self, expr: ast.AST | None, depth: int) -> Any:
        if isinstance(expr, ast.Constant):
            return expr.value
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
            operand = self._literal(expr.operand, depth)
            if isinstance(operand, (int, float)) and not isinstance(operand, bool):
                return -operand if isinstance(expr.op, ast.USub) else operand
            return NOT_LITERAL
        if isinstance(expr, ast.Tuple):
            values = tuple(self._literal(element, depth) for element in expr.elts)
            return NOT_LITERAL if any(value is NOT_LITERAL for value in values) else values
        if isinstance(expr, ast.Name) and depth > 0:
            constant = self.module_constant(expr)
            if constant is not None and constant.value is not None:
                return self._literal(constant.value, depth - 1)
        return NOT_LITERAL

    def module_constant(self, node: ast.Name) -> Binding | None:
        """The binding of `node` when it is a module-level name bound exactly once, by a
        plain assignment (a constant: `MASKED_LOGIT_VALUE = -1e4`)."""
        found = self.bindings(node)
        if (
            len(found) == 1
            and found[0].scope is self.module_scope
            and found[0].kind is BindingKind.ASSIGNMENT
            and not found[0].augmented
            and found[0].value is not None
        ):
            return found[0]
        return None

    # -- module names --------------------------------------------------------------------

    def absolute_module(self, level: int, module: str | None) -> str | None:
        """The module a `from <dots><module> import ...` names; None if unknowable."""
        if level == 0:
            return module
        if self.module is None:
            return None
        parts = self.module.split(".")
        if not self.is_package:
            parts = parts[:-1]
        if level - 1 > len(parts) or (level - 1 == len(parts) and not module):
            return None
        base = parts[: len(parts) - (level - 1)]
        return ".".join([*base, *([module] if module else [])]) or None


class _NotLiteral:
    def __repr__(self) -> str:
        return "NOT_LITERAL"

    def __bool__(self) -> bool:
        return False


NOT_LITERAL: Any = _NotLiteral()


class _Builder:
    """One walk over the tree that fills a SemanticModel."""

    def __init__(self, model: SemanticModel) -> None:
        self.model = model

    def build(self) -> None:
        model = self.model
        # (node, scope it is evaluated in, enclosing statement)
        stack: list[tuple[ast.AST, Scope, ast.stmt | None]] = [
            (statement, model.module_scope, statement) for statement in reversed(model.tree.body)
        ]
        for statement in model.tree.body:
            model._parents[id(statement)] = model.tree
        parents = model._parents
        scope_of = model._scope_of
        loads = model.loads
        special = self._special
        push, pop = stack.append, stack.pop
        node_type = ast.AST
        statement_type = ast.stmt
        name_type, load_type = ast.Name, ast.Load
        assign_type, attribute_type = ast.Assign, ast.Attribute
        attribute_assignments = model._attribute_assignments
        while stack:
            node, scope, statement = pop()
            scope_of[id(node)] = scope
            kind = type(node)
            if kind is name_type:
                if type(node.ctx) is load_type:  # type: ignore[attr-defined]
                    loads.append((node, scope))  # type: ignore[arg-type]
                else:
                    self._bind_target(node, scope, statement)  # type: ignore[arg-type]
                continue
            if isinstance(node, statement_type):
                statement = node
                if kind is assign_type and len(node.targets) == 1 and \
                        type(node.targets[0]) is attribute_type and \
                        type(node.targets[0].value) is name_type:  # type: ignore[attr-defined]
                    attribute_assignments.append((node, scope))  # type: ignore[arg-type]
            handler = special.get(kind)
            if handler is not None:
                for child, child_scope in reversed(handler(node, scope, statement)):
                    # Set earlier where the parent is not `node` (a comprehension's parts).
                    parents.setdefault(id(child), node)
                    push((child, child_scope, statement))
                continue
            # Everything else: its children, evaluated in the same scope, in source order.
            fields = _CHILD_FIELDS.get(kind)
            if fields is None:
                fields = _CHILD_FIELDS[kind] = tuple(
                    name for name in kind._fields if name not in _SINGLETON_FIELDS)
            for name in reversed(fields):
                value = getattr(node, name, None)
                if type(value) is list:
                    for item in reversed(value):
                        if isinstance(item, node_type):
                            parents[id(item)] = node
                            push((item, scope, statement))
                elif isinstance(value, node_type):
                    parents[id(value)] = node
                    push((value, scope, statement))

    @property
    def _special(self) -> dict[type, Any]:
        """The node types that bind names or open scopes, and what records them."""
        return {
            ast.FunctionDef: self._function,
            ast.AsyncFunctionDef: self._function,
            ast.Lambda: lambda node, scope, statement: self._lambda(node, scope),
            ast.ClassDef: self._class,
            **{kind: (lambda node, scope, statement: self._comprehension(node, scope))
               for kind in _COMPREHENSION_TYPES},
            ast.Import: self._import,
            ast.ImportFrom: self._import_from,
            ast.Global: self._global,
            ast.Nonlocal: self._nonlocal,
            ast.ExceptHandler: self._except_handler,
            ast.MatchAs: self._match_name,
            ast.MatchStar: self._match_name,
            ast.MatchMapping: self._match_mapping,
            ast.AnnAssign: self._annotated_assignment,
            ast.NamedExpr: self._named_expression,
        }

    def _import(self, node: ast.Import, scope: Scope,
                statement: ast.stmt | None) -> list[tuple[ast.AST, Scope]]:
        for alias in node.names:
            if alias.asname:
                self._bind(scope, alias.asname, BindingKind.IMPORT, alias, statement,
                           qualified_name=alias.name)
            else:
                top = alias.name.split(".")[0]
                self._bind(scope, top, BindingKind.IMPORT, alias, statement, qualified_name=top)
        return [(alias, scope) for alias in node.names]

    def _import_from(self, node: ast.ImportFrom, scope: Scope,
                     statement: ast.stmt | None) -> list[tuple[ast.AST, Scope]]:
        base = self.model.absolute_module(node.level, node.module)
        for alias in node.names:
            if alias.name == "*":
                if base is not None:
                    scope.star_imports.append(base)
                continue
            self._bind(scope, alias.asname or alias.name, BindingKind.FROM_IMPORT, alias,
                       statement,
                       qualified_name=f"{base}.{alias.name}" if base is not None else None)
        return [(alias, scope) for alias in node.names]

    def _global(self, node: ast.Global, scope: Scope,
                statement: ast.stmt | None) -> list[tuple[ast.AST, Scope]]:
        scope.global_names.update(node.names)
        return []

    def _nonlocal(self, node: ast.Nonlocal, scope: Scope,
                  statement: ast.stmt | None) -> list[tuple[ast.AST, Scope]]:
        scope.nonlocal_names.update(node.names)
        return []

    def _except_handler(self, node: ast.ExceptHandler, scope: Scope,
                        statement: ast.stmt | None) -> list[tuple[ast.AST, Scope]]:
        if node.name:
            self._bind(scope, node.name, BindingKind.EXCEPT, node, statement)
        return [(child, scope) for child in ast.iter_child_nodes(node)]

    def _match_name(self, node: ast.MatchAs | ast.MatchStar, scope: Scope,
                    statement: ast.stmt | None) -> list[tuple[ast.AST, Scope]]:
        if node.name:
            self._bind(scope, node.name, BindingKind.MATCH, node, statement)
        return [(child, scope) for child in ast.iter_child_nodes(node)]

    def _match_mapping(self, node: ast.MatchMapping, scope: Scope,
                       statement: ast.stmt | None) -> list[tuple[ast.AST, Scope]]:
        if node.rest:
            self._bind(scope, node.rest, BindingKind.MATCH, node, statement)
        return [(child, scope) for child in ast.iter_child_nodes(node)]

    def _annotated_assignment(self, node: ast.AnnAssign, scope: Scope,
                              statement: ast.stmt | None) -> list[tuple[ast.AST, Scope]]:
        self.model._annotated.append(node)  # for string_annotations()
        if not isinstance(node.target, ast.Name):
            if isinstance(node.target, ast.Attribute) and isinstance(node.target.value, ast.Name):
                self.model._attribute_assignments.append((node, scope))
            return [(child, scope) for child in ast.iter_child_nodes(node)]
        # Recorded here, with the annotation; the target itself is not visited.
        kind = BindingKind.ASSIGNMENT if node.value is not None else BindingKind.ANNOTATION
        self._bind(scope, node.target.id, kind, node.target, statement,
                   value=node.value, annotation=node.annotation)
        self.model._parents[id(node.target)] = node
        self.model._scope_of[id(node.target)] = scope
        return [(child, scope) for child in (node.annotation, node.value) if child]

    def _named_expression(self, node: ast.NamedExpr, scope: Scope,
                          statement: ast.stmt | None) -> list[tuple[ast.AST, Scope]]:
        # The walrus binds in the nearest enclosing scope that is not a comprehension.
        target_scope = scope
        while target_scope.kind is ScopeKind.COMPREHENSION and target_scope.parent:
            target_scope = target_scope.parent
        self._bind(target_scope, node.target.id, BindingKind.ASSIGNMENT, node.target,
                   statement, value=node.value)
        self.model._parents[id(node.target)] = node
        self.model._scope_of[id(node.target)] = target_scope
        return [(node.value, scope)]

    def _bind_target(self, node: ast.Name, scope: Scope, statement: ast.stmt | None) -> None:
        parent = self.model._parents.get(id(node))
        value: ast.expr | None = None
        augmented = False
        if isinstance(node.ctx, ast.Del):
            kind = BindingKind.DELETION
        elif isinstance(parent, ast.Assign):
            kind = BindingKind.ASSIGNMENT
            value = parent.value  # only for `x = value`, not for unpacking
        elif isinstance(parent, ast.AugAssign):
            kind, value, augmented = BindingKind.ASSIGNMENT, parent.value, True
        elif isinstance(parent, (ast.For, ast.AsyncFor)):
            kind = BindingKind.LOOP
        elif isinstance(parent, ast.withitem):
            kind = BindingKind.WITH
        elif isinstance(parent, ast.comprehension):
            kind = BindingKind.COMPREHENSION
        else:
            kind = self._unpacking_kind(node)
        self._bind(scope, node.id, kind, node, statement, value=value, augmented=augmented)

    def _unpacking_kind(self, node: ast.AST) -> BindingKind:
        """The kind of a name bound inside a tuple/list/starred target."""
        for ancestor in self.model.ancestors(node):
            if isinstance(ancestor, (ast.For, ast.AsyncFor)):
                return BindingKind.LOOP
            if isinstance(ancestor, ast.withitem):
                return BindingKind.WITH
            if isinstance(ancestor, ast.comprehension):
                return BindingKind.COMPREHENSION
            if isinstance(ancestor, ast.stmt):
                break
        return BindingKind.ASSIGNMENT

    def _bind(
        self, scope: Scope, name: str, kind: BindingKind, node: ast.AST,
        statement: ast.stmt | None, *, qualified_name: str | None = None,
        value: ast.expr | None = None, annotation: ast.expr | None = None,
        augmented: bool = False,
    ) -> None:
        if name in scope.global_names and scope is not self.model.module_scope:
            scope = self.model.module_scope
        scope.bindings.setdefault(name, []).append(Binding(
            name, kind, node, scope, statement, qualified_name, value, annotation, augmented,
        ))

    def _new_scope(self, kind: ScopeKind, node: ast.AST, parent: Scope) -> Scope:
        scope = Scope(kind, node, parent)
        self.model.scopes.append(scope)
        self.model._node_scope[id(node)] = scope
        return scope

    def _definition_name(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
                         scope: Scope) -> str | None:
        """`<module>.<Class>.<name>` for defs and classes not nested in a function."""
        names = [node.name]
        current: Scope | None = scope
        while current is not None and current.kind is ScopeKind.CLASS:
            names.append(current.node.name)  # type: ignore[attr-defined]
            current = current.parent
        if current is None or current.kind is not ScopeKind.MODULE:
            return None
        prefix = self.model.module
        return ".".join([*([prefix] if prefix else []), *reversed(names)])

    def _function(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope,
        statement: ast.stmt | None,
    ) -> list[tuple[ast.AST, Scope]]:
        self._bind(scope, node.name, BindingKind.FUNCTION, node, statement,
                   qualified_name=self._definition_name(node, scope))
        inner = self._new_scope(ScopeKind.FUNCTION, node, scope)
        children: list[tuple[ast.AST, Scope]] = [(d, scope) for d in node.decorator_list]
        children += self._type_parameters(node, scope)
        children += self._arguments(node.args, scope, inner, statement)
        if node.returns is not None:
            children.append((node.returns, scope))
        children += [(child, inner) for child in node.body]
        return children

    def _lambda(self, node: ast.Lambda, scope: Scope) -> list[tuple[ast.AST, Scope]]:
        inner = self._new_scope(ScopeKind.LAMBDA, node, scope)
        children = self._arguments(node.args, scope, inner, self.model.statement(node))
        children.append((node.body, inner))
        return children

    def _arguments(
        self, arguments: ast.arguments, outer: Scope, inner: Scope, statement: ast.stmt | None
    ) -> list[tuple[ast.AST, Scope]]:
        positional = [*arguments.posonlyargs, *arguments.args]
        defaults: dict[int, ast.expr] = {}
        for offset, default in enumerate(arguments.defaults):
            defaults[id(positional[len(positional) - len(arguments.defaults) + offset])] = default
        for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
            if default is not None:
                defaults[id(arg)] = default
        children: list[tuple[ast.AST, Scope]] = [
            (default, outer) for default in [*arguments.defaults, *arguments.kw_defaults]
            if default is not None
        ]
        every = [*positional, *arguments.kwonlyargs]
        every += [arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None]
        for arg in every:
            self._bind(inner, arg.arg, BindingKind.PARAMETER, arg, statement,
                       value=defaults.get(id(arg)), annotation=arg.annotation)
            self.model._parents[id(arg)] = arguments
            self.model._scope_of[id(arg)] = inner
            if arg.annotation is not None:
                self.model._parents[id(arg.annotation)] = arg
                children.append((arg.annotation, outer))
        return children

    def _type_parameters(self, node: ast.AST, scope: Scope) -> list[tuple[ast.AST, Scope]]:
        params = getattr(node, "type_params", None) or []
        for param in params:
            self._bind(scope, param.name, BindingKind.TYPE_PARAMETER, param, None)
        return []

    def _class(
        self, node: ast.ClassDef, scope: Scope, statement: ast.stmt | None
    ) -> list[tuple[ast.AST, Scope]]:
        self._bind(scope, node.name, BindingKind.CLASS, node, statement,
                   qualified_name=self._definition_name(node, scope))
        inner = self._new_scope(ScopeKind.CLASS, node, scope)
        children: list[tuple[ast.AST, Scope]] = [
            (child, scope) for child in [*node.decorator_list, *node.bases, *node.keywords]
        ]
        children += [(child, inner) for child in node.body]
        return children

    def _comprehension(self, node: ast.AST, scope: Scope) -> list[tuple[ast.AST, Scope]]:
        inner = self._new_scope(ScopeKind.COMPREHENSION, node, scope)
        children: list[tuple[ast.AST, Scope]] = []
        for index, generator in enumerate(node.generators):  # type: ignore[attr-defined]
            self.model._parents[id(generator)] = node
            self.model._scope_of[id(generator)] = inner
            # The first iterable is evaluated in the enclosing scope.
            parts = [generator.iter, generator.target, *generator.ifs]
            for part in parts:
                self.model._parents[id(part)] = generator
            children.append((generator.iter, scope if index == 0 else inner))
            children += [(part, inner) for part in parts[1:]]
        if isinstance(node, ast.DictComp):
            children += [(node.key, inner), (node.value, inner)]
        else:
            children.append((node.elt, inner))  # type: ignore[attr-defined]
        return children


@per_tree
def _models(tree: ast.Module) -> dict[tuple[str | None, bool], SemanticModel]:
    return {}


def model_of(tree: ast.Module, module: str | None = None,
             is_package: bool = False) -> SemanticModel:
    """The semantic model of `tree`, built once for the tree the engine is working on
    (`torchfix.model.ast_index.per_tree`: forgotten with the file)."""
    models = _models(tree)
    key = (module, is_package)
    if key not in models:
        models[key] = SemanticModel(tree, module, is_package)
    return models[key]
