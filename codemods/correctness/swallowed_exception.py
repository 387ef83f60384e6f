"""swallowed-exception: `except Exception: pass` hides bugs; log them at debug level."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from torchfix.model.ast_index import nodes_of
from torchfix.model.semantic import Binding, BindingKind, SemanticModel
from torchfix.model.test_code import is_test_path
from torchfix.rewrite.contract import Codemod, FileContext, Finding, ReplaceNode, Safety

BROAD = frozenset({"builtins.Exception", "builtins.BaseException"})
# The names a module's logger usually goes by, most usual first.
LOGGER_NAMES = ("logger", "log", "_logger", "LOGGER", "_LOGGER", "_log", "LOG", "_LOG")
MESSAGE = "`{what}: pass` silently swallows every error, bugs included"
BARE = " (a bare `except:` also catches KeyboardInterrupt and SystemExit)"


class SwallowedException(Codemod):
    """Report `except Exception: pass`; with `--unsafe-fixes`, log the exception at debug
    level with the module's logger.

    ## What it does
    Finds handlers that catch everything (`except Exception:`, `except BaseException:`,
    a bare `except:`) and do nothing (`pass` or `...`). Where the module has a logger
    (`logger = logging.getLogger(__name__)`, or `log`, `_logger`, `LOGGER`, ... from a
    `getLogger` / `get_logger` call), the unsafe fix replaces the `pass` with a
    `logger.debug(..., exc_info=True)` call; elsewhere the handler is reported.

    ## Why
    A handler that swallows every exception hides the bugs in the code it guards: a
    misspelt attribute in a metrics helper, a shape mismatch in an optional diagnostic,
    a device error. Training goes on with the feature silently missing, and nobody finds
    out why the dashboard is empty. Logging the exception (with its traceback) keeps the
    graceful degradation and makes the failure findable. A bare `except:` also catches
    `KeyboardInterrupt` and `SystemExit`, so Ctrl-C can be swallowed too.

    ## Example
    ```python
    logger = logging.getLogger(__name__)

    def collect_layer_stats(agent, payload):
        try:
            payload.update(layer_gradient_health(agent.policy))
        except Exception:
            pass  # graceful degradation
    ```
    becomes
    ```python
        except Exception:
            logger.debug("Ignored an exception in collect_layer_stats", exc_info=True)
    ```

    ## Fix safety
    The fix is **unsafe**: the handler still swallows the exception, but it now emits a
    debug record, which costs a little where debug logging is on and changes what log
    handlers see. Without a module-level logger nothing is changed and the handler is
    reported: which logger to use is a decision for the project. Bare `except:` keeps
    its meaning (the message says to narrow it). Left alone: handlers the project marked
    as deliberate (`# noqa: S110`, `E722`, `BLE001`, a bare `# noqa`, or a pylint
    `broad-except` / `bare-except` disable), probes (a `try` whose one statement returns
    the answer, `try: return float(text)`, with the fallback after the handler, or that
    only imports an optional module), handlers in `__del__`
    (where swallowing is the rule and logging may fail at interpreter shutdown), handlers
    that do anything besides `pass`, narrower exception types, and test code.
    """

    name = "swallowed-exception"
    summary = "Report except Exception: pass; log the exception at debug level instead."
    triggers = (b"except:", b"except Exception", b"except BaseException", b"except (")
    fix_safety = "unsafe"
    enabled_by_default = False
    family = "correctness"

    @classmethod
    def skips_path(cls, path: Path) -> bool:
        return is_test_path(path)

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {handler.lineno for handler in nodes_of(tree, ast.ExceptHandler)
                if _does_nothing(handler)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        model = file.semantic
        loggers = _module_loggers(model)
        for handler in nodes_of(file.tree, ast.ExceptHandler):
            if not _does_nothing(handler):
                continue
            what = _broad(model, handler)
            if what is None or _acknowledged(file, handler) or _probe(model, handler):
                continue
            function = model.enclosing_function(handler)
            if function is not None and function.name == "__del__":
                continue
            message = MESSAGE.format(what=f"except {what}".strip())
            bare = BARE if handler.type is None else ""
            statement = handler.body[0]
            logger = _logger_for(model, loggers, statement)
            if logger is None:
                yield Finding(handler, f"{message}: log it or narrow the exception type{bare}",
                              Safety.MANUAL)
                continue
            where = ".".join(model.function_path(handler))
            text = f"Ignored an exception in {where}" if where else "Ignored an exception"
            yield Finding(
                handler, f"{message}: log it with `{logger}.debug(..., exc_info=True)`{bare}",
                Safety.UNSAFE,
                (ReplaceNode(statement, f'{logger}.debug("{text}", exc_info=True)'),),
            )


def _acknowledged(file: FileContext, handler: ast.ExceptHandler) -> bool:
    """Whether the project already said this handler is deliberate: a `# noqa` (bare, or
    for E722 / S110 / BLE001) or a pylint disable for broad or bare excepts on its lines."""
    last = handler.body[0].end_lineno or handler.lineno
    text = " ".join(file.lines[handler.lineno - 1:last]).lower()
    if "# noqa" in text:
        codes = text.split("# noqa", 1)[1]
        if not codes.startswith(":") or any(c in codes for c in ("e722", "s110", "ble")):
            return True
    return "pylint: disable" in text and any(
        word in text for word in ("broad-except", "bare-except", "broad-exception-caught"))


def _probe(model: SemanticModel, handler: ast.ExceptHandler) -> bool:
    """A try that is a question, not an operation: its one statement returns the answer
    (`try: return float(x)`, `try: if is_dicom(f): return True`), and the code after the
    handler the default; or it only imports an optional module."""
    statement = model.parent(handler)
    body = getattr(statement, "body", None)
    if not body:
        return False
    if all(isinstance(s, (ast.Import, ast.ImportFrom)) for s in body):
        return True
    if len(body) != 1:
        return False
    only = body[0]
    return isinstance(only, ast.Return) or (
        isinstance(only, ast.If) and len(only.body) == 1 and isinstance(only.body[0], ast.Return)
        and not only.orelse)


def _does_nothing(handler: ast.ExceptHandler) -> bool:
    if len(handler.body) != 1:
        return False
    statement = handler.body[0]
    return isinstance(statement, ast.Pass) or (
        isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        and statement.value.value is Ellipsis)


def _broad(model: SemanticModel, handler: ast.ExceptHandler) -> str | None:
    """How the handler's type is written, if it catches every exception."""
    if handler.type is None:
        return ""
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    for caught in types:
        if model.qualified_name(caught) in BROAD:
            return ast.unparse(caught) if caught is handler.type else ast.unparse(handler.type)
    return None


def _module_loggers(model: SemanticModel) -> list[Binding]:
    """Module-level names bound (only) to a logger: `logger = logging.getLogger(...)`."""
    found = []
    for bindings in model.module_scope.bindings.values():
        if bindings and all(_is_logger_binding(model, b) for b in bindings):
            found.append(bindings[0])
    order = {name: index for index, name in enumerate(LOGGER_NAMES)}
    return sorted(found, key=lambda b: (order.get(b.name, len(order)), b.position))


def _is_logger_binding(model: SemanticModel, binding: Binding) -> bool:
    if binding.kind is not BindingKind.ASSIGNMENT or binding.augmented:
        return False
    value = binding.value
    if not isinstance(value, ast.Call):
        return False
    name = model.qualified_name(value.func) or ""
    return name == "logging.getLogger" or name.endswith(
        ("logging.get_logger", "logging.getLogger"))


def _logger_for(model: SemanticModel, loggers: list[Binding], at: ast.stmt) -> str | None:
    """The module logger visible (and already bound) where `at` runs."""
    scope = model.scope_of(at)
    in_function = model.enclosing_function(at) is not None
    for binding in loggers:
        if model.bindings_of(binding.name, scope) is not model.module_scope.local(binding.name):
            continue  # shadowed here
        if not in_function and binding.position >= (at.lineno, at.col_offset):
            continue  # module-level code before the logger exists
        return binding.name
    return None
