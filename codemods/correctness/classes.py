"""The classes a file's code refers to, through the project model (which reads the file
being decided as it is decided, and the rest of the project from disk)."""

from __future__ import annotations

import ast

from torchfix.model.facts import ClassFacts
from torchfix.rewrite.contract import FileContext


class Classes:
    """Class facts and `self` for one file."""

    def __init__(self, file: FileContext) -> None:
        self.file = file
        self.model = file.semantic
        self.project = file.project

    def facts(self, qualified: str | None) -> ClassFacts | None:
        return self.project.class_facts(qualified)

    def ancestors(self, qualified: str) -> list[str]:
        """Every base of the class, transitively, by qualified name (unknown ones left out)."""
        return [name for name in self.project.ancestors(qualified) if name is not None]

    def is_module_class(self, qualified: str | None) -> bool:
        """A torch.nn class, or a class of the project deriving from one."""
        if qualified is None:
            return False
        if qualified.startswith("torch.nn.") and qualified.rsplit(".", 1)[-1][:1].isupper():
            return True
        return self.facts(qualified) is not None and any(
            a.startswith("torch.nn.") for a in self.ancestors(qualified))

    def class_name(self, cls: ast.ClassDef) -> str | None:
        for binding in self.model.scope_of(cls).local(cls.name):
            if binding.node is cls:
                return binding.qualified_name
        return None

    def is_self(self, name: ast.AST) -> bool:
        """Whether `name` is the first parameter of the method holding it."""
        if not isinstance(name, ast.Name):
            return False
        function = self.model.enclosing_function(name)
        if function is None or self.model.enclosing_class(function) is None:
            return False
        params = [*function.args.posonlyargs, *function.args.args]
        return bool(params) and params[0].arg == name.id and not any(
            isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
            for d in function.decorator_list)

    def self_class(self, node: ast.AST) -> str | None:
        cls = self.model.enclosing_class(node)
        return self.class_name(cls) if cls is not None else None

    def self_attribute(self, attribute: ast.Attribute) -> tuple[str | None, ...]:
        """What `self.<attr>` is built from in its class and its bases (qualified names of
        the constructors; None for values not built by a call); () when unknown."""
        if not self.is_self(attribute.value):
            return ()
        qualified = self.self_class(attribute)
        if qualified is None:
            return ()
        for name in [qualified, *self.ancestors(qualified)]:
            facts = self.facts(name)
            if facts is not None and attribute.attr in facts.attributes:
                return facts.attributes[attribute.attr]
        return ()
