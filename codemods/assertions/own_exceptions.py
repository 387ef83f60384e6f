"""A project that raises its own exception classes, not Python's.

torch-to-nnef's `exceptions.py` says it: "Errors should be specific to be catchable so
no builtin Exception should be raised", and 580 of its 596 raises are of its `T2NError`
family. Round 45's reviewer read all 40 of its asserts rewritten to raise ValueError or
TypeError as wrong: the project's convention asks for one of its own classes, and which
one (`T2NErrorInvalidArgument`, `T2NErrorNotImplemented`, ...) is a maintainer's choice.
Such a project's asserts are reported, not rewritten.

A project-wide fact (`Project.derived`), read off the raise census every module's part of
which is remembered between runs.
"""

from __future__ import annotations

import builtins

from torchfix.model.project import Project, register_derived_fact

from .raise_census import census, totals

# "<N> of <M> raises, <class>": the project raises its own exceptions; "" where it does
# not. name: the project root.
OWN_EXCEPTIONS = "assert-to-raise/own-exceptions"
# At least this many raises of the project's own classes, and this share of the raises of
# its own and Python's exception classes together.
OWN_EXCEPTIONS_MIN = 20
OWN_EXCEPTIONS_SHARE = 0.8
BUILTIN_EXCEPTIONS = frozenset(
    name for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException))


def own_exceptions(project: Project, root: str) -> str:
    """See `OWN_EXCEPTIONS`. Tests aside: they raise what they like."""
    _forms, bases, raised = totals(census(project, root))
    own = _exception_classes(bases)
    own_raises = sum(count for name, count in raised.items() if name in own)
    builtin_raises = sum(count for name, count in raised.items()
                         if name in BUILTIN_EXCEPTIONS and name not in own)
    if own_raises < OWN_EXCEPTIONS_MIN or \
            own_raises < OWN_EXCEPTIONS_SHARE * (own_raises + builtin_raises):
        return ""
    most = max((name for name in raised if name in own), key=lambda name: raised[name])
    return f"{own_raises} of {own_raises + builtin_raises} raises, {most}"


def _exception_classes(bases: dict[str, set[str]]) -> set[str]:
    """The project's classes that derive from an exception, through each other."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, base_names in bases.items():
            if name not in found and base_names & (BUILTIN_EXCEPTIONS | found):
                found.add(name)
                changed = True
    return found


register_derived_fact(OWN_EXCEPTIONS, own_exceptions)
