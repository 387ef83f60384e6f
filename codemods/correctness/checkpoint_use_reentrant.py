"""checkpoint-use-reentrant: pass `use_reentrant` to torch.utils.checkpoint (TorchFix TOR003)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from torchfix.model.ast_names import dotted_name
from torchfix.model.project import Project, register_derived_fact
from torchfix.model.scan_memo import first_answer, parse_if_mentions, project_modules
from torchfix.model.test_code import is_test_path
from torchfix.model.version_guards import older_branch_ceiling
from torchfix.rewrite.contract import Codemod, FileContext, Finding, Option, Safety
from torchfix.rewrite.layout import appended_keyword

from ..prefilter import torch_calls

FUNCTIONS = ("torch.utils.checkpoint.checkpoint", "torch.utils.checkpoint.checkpoint_sequential")
# checkpoint()'s own keywords that the reentrant variant accepts; any other keyword
# (context_fn, debug, or arguments for the function) needs use_reentrant=False.
REENTRANT_KEYWORDS = frozenset({"preserve_rng_state", "determinism_check", "early_stop"})
SINCE = (1, 11)
# Where the project puts its own function in torch.utils.checkpoint.checkpoint's place
# (see `replaced_checkpoint`).
REPLACED = "checkpoint-use-reentrant/replaced-checkpoint"
# optimum-habana's trainer sets `torch.utils.checkpoint.checkpoint = lazy_mode_checkpointing`,
# which turns use_reentrant=True into False (round 34): the keyword written at the calls
# then says the opposite of what runs, and reviewers called the three safe fixes noise.
REPLACED_MESSAGE = ("pass use_reentrant explicitly where the project's replacement of "
                    "torch.utils.checkpoint.checkpoint ({where}) takes it: what the keyword "
                    "does is up to that function")


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError("checkpoint-use-reentrant: use-reentrant must be true or false")
    return value


class CheckpointUseReentrant(Codemod):
    """Pass `use_reentrant` to `torch.utils.checkpoint` explicitly.

    ## What it does
    `checkpoint(fn, *args)` and `checkpoint_sequential(...)` without `use_reentrant` get
    `use_reentrant=True`: the variant torch uses today when none is given, now written
    down. With the option `use-reentrant = false` they get `use_reentrant=False`, the
    variant torch recommends, as an unsafe fix.

    ## Why
    Without it, every call warns, and torch has announced that leaving it out will
    become an error. The two variants differ in ways that matter: the reentrant one
    computes no gradients for the block's parameters when none of its tensor inputs
    requires grad (a frozen embedding in front of it, say), does not support
    `torch.autograd.grad` or keyword arguments to the function, and needs
    `preserve_rng_state` for dropout to replay.

    ## Example
    ```python
    hidden = checkpoint(self.block, hidden)
    ```
    becomes
    ```python
    hidden = checkpoint(self.block, hidden, use_reentrant=True)
    ```

    ## Fix safety
    `use_reentrant=True` is what the call does today: **safe**. `use_reentrant=False`
    (option `use-reentrant = false`) changes which gradients are computed and how memory
    is used: **unsafe**, for a person to test. A call that passes other keywords
    (`context_fn=`, arguments for the function) only works with `use_reentrant=False`
    and is reported; one that passes `**kwargs` is left alone. The keyword needs torch
    1.11: below the project's torch floor the call is reported, and where the project's
    dependency files name no torch at all, `use_reentrant=True` is unsafe too. Reported:
    every call in a project that puts its own function in
    `torch.utils.checkpoint.checkpoint`'s place (what the keyword means is up to it), and
    `x = checkpoint(blk, x)` whose `else:` unpacks `x, attn = blk(x)` (a broken branch).
    TorchFix code: TOR003 (TorchFix's fix wrote `use_reentrant=False`).
    """

    name = "checkpoint-use-reentrant"
    summary = "Pass use_reentrant to torch.utils.checkpoint explicitly (True keeps today's)."
    # Any use imports torch.utils.checkpoint, or names it in full.
    triggers = (b"utils.checkpoint", b"utils import checkpoint")
    fix_safety = "safe, unsafe"
    codes = ("TOR003",)
    family = "correctness"
    options = (
        Option("use-reentrant", True, "The value to write: true keeps today's behaviour "
               "(safe); false is the recommended variant (an unsafe fix).", check=_flag),
    )

    @classmethod
    def skips_path(cls, path: Path) -> bool:
        # A test exercises what the default does; under torch.compile a test framework may
        # reject the keyword the fix writes (lightning-thunder's test_dynamo.py: "use_reentrant
        # =True is not supported in Thunder", four tests broken; round 22).
        return is_test_path(path)

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {call.lineno for call in _calls(tree)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        value = bool(file.option("use-reentrant", cls))
        floor = file.min_torch()
        replaced: str | None = None  # read once per file, where a call needs it
        for call in _calls(file.tree):
            if file.semantic.qualified_name(call.func) not in FUNCTIONS:
                continue
            keywords = {k.arg for k in call.keywords}
            if "use_reentrant" in keywords or None in keywords:
                continue
            ceiling = older_branch_ceiling(file.tree, call, file.semantic.ancestors(call))
            if ceiling is not None and ceiling <= SINCE:
                # the branch a version check keeps for torch older than 1.11 (IOPaint's
                # `else:` of `if is_torch_version(">=", "1.11.0")`, round 26): the
                # keyword would break the only torch that runs it
                continue
            unpacked = _unpacked_elsewhere(file, call)
            if unpacked is not None:
                # the vendored HTSAT of laion-clap, in audioldm2, audiosr and msclap (rounds
                # 33 and 34): `x = checkpoint.checkpoint(blk, x)` beside `x, attn = blk(x)`;
                # reviewers called the keyword there noise three times
                yield Finding(call, BROKEN_MESSAGE.format(line=unpacked), Safety.MANUAL)
                continue
            if replaced is None:
                replaced = file.project.derived(REPLACED, str(file.project.root))
            if replaced:
                yield Finding(call, REPLACED_MESSAGE.format(where=replaced), Safety.MANUAL)
                continue
            if floor is not None and floor < SINCE:
                yield Finding(call, "pass use_reentrant explicitly (it needs torch >= 1.11, "
                              f"and the project supports torch {floor[0]}.{floor[1]})",
                              Safety.MANUAL)
                continue
            predates = file.era_predates(SINCE, "use_reentrant") if floor is None else None
            if predates:
                yield Finding(call, f"pass use_reentrant explicitly ({predates})",
                              Safety.MANUAL)
                continue
            # tape-proteins (round 29) lists no torch among its dependencies; its
            # repository pins torch 1.1.0, where the keyword is a TypeError
            unlisted = file.undeclared_floor(SINCE, "use_reentrant") if floor is None else None
            other = sorted(keywords - REENTRANT_KEYWORDS - {"segments"})
            if other and value:
                yield Finding(call, f"`{other[0]}=` only works with use_reentrant=False: "
                              "pass it", Safety.MANUAL)
                continue
            if value:
                yield Finding(call, "pass use_reentrant=True: what the call does today, "
                              "without the warning (False is recommended, after testing)"
                              + (f"; unsafe: {unlisted}" if unlisted else ""),
                              Safety.UNSAFE if unlisted else Safety.SAFE,
                              (appended_keyword(file, call, "use_reentrant", "True"),))
            else:
                yield Finding(call, "pass use_reentrant=False: gradients now also reach "
                              "parameters when no input requires grad; test the change",
                              Safety.UNSAFE,
                              (appended_keyword(file, call, "use_reentrant", "False"),))


def _calls(tree: ast.Module) -> list[ast.Call]:
    names = ("checkpoint", "checkpoint_sequential")
    return [call for call in torch_calls(tree, names)
            if not any(k.arg in ("use_reentrant", None) for k in call.keywords)]


BROKEN_MESSAGE = ("the checkpointed function returns a tuple, which line {line} unpacks and "
                  "this branch assigns to one name: fix the branch before passing "
                  "use_reentrant")


def _unpacked_elsewhere(file: FileContext, call: ast.Call) -> int | None:
    """The line of the `else:` arm's `x, attn = blk(x)` where `call` is `x =
    checkpoint(blk, x)` in the `if` arm: the branch binds the tuple the function returns
    to one name, and breaks the next step, keyword or not. None elsewhere."""
    parent = file.semantic.parent(call)
    if not (call.args and isinstance(parent, ast.Assign) and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name)):
        return None
    branch = file.semantic.parent(parent)
    if not isinstance(branch, ast.If) or parent not in branch.body:
        return None
    function = ast.dump(call.args[0])
    for statement in branch.orelse:
        if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Tuple) \
                and isinstance(statement.value, ast.Call) \
                and ast.dump(statement.value.func) == function:
            return statement.lineno
    return None


def replaced_checkpoint(project: Project, root: str) -> str:
    """Where the project's own code below `root` replaces torch.utils.checkpoint.checkpoint
    ("path:line"; "" where it does not): `torch.utils.checkpoint.checkpoint = f` or
    `setattr(torch.utils.checkpoint, "checkpoint", f)`. Tests aside. Only modules that
    name `utils.checkpoint` are parsed; each file's answer is remembered by the scan memo."""
    found = first_answer(project.memo(REPLACED.replace("/", "-")), project_modules(root),
                         _replacing_line)
    return "" if found is None else f"{found[0].relative_to(root).as_posix()}:{found[1]}"


def _replacing_line(path: Path) -> int:
    """The line of the module's first replacement of torch.utils.checkpoint.checkpoint;
    0 where it has none."""
    tree = parse_if_mentions(path, b"utils.checkpoint")
    if tree is None:
        return 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
                (dotted_name(target) or "").endswith("utils.checkpoint.checkpoint")
                for target in node.targets):
            return node.lineno
        if isinstance(node, ast.Call) and dotted_name(node.func) == "setattr" and \
                len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and \
                node.args[1].value == "checkpoint" and \
                (dotted_name(node.args[0]) or "").endswith("utils.checkpoint"):
            return node.lineno
    return 0


register_derived_fact(REPLACED, replaced_checkpoint)
