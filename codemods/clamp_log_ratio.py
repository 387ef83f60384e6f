"""clamp-log-ratio: clamp a log-probability ratio before `exp` so PPO losses cannot go NaN."""

from __future__ import annotations

import ast
import enum
import functools
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import libcst as cst
import libcst.matchers as m
from libcst.codemod import CodemodContext

from torchfix.model.ast_index import nodes_of, walk
from torchfix.rewrite.codemod import CodemodSettings, Option, Safety, TorchfixCodemod
from torchfix.rewrite.edits import keyword

DEFAULT_BOUND = 20.0

# Words that name a probability after "log" (or "neglog"): log_prob, log_pi, log_mu, ...
PROBABILITY_WORDS = frozenset(
    {
        "lik", "likelihood", "likelihoods", "mu", "p", "pi", "pis", "prob", "proba", "probas",
        "probabilities", "probability", "probs", "ps",
    }
)
# One-word spellings of a log-probability, also as the end of a word: newlogprob, b_logprobs.
FUSED_LOG_PROB_ENDINGS = ("logp", "logpi", "logprob", "logproba", "logprobas", "logprobs", "logps")
# Words that make a log-probability-like name an aggregate or a derived quantity
# (`max_log_prob`, `log_probs_lse`, `logp_diff`): `exp(log_prob - max_log_prob)` is a
# normalised probability, not an importance ratio.
NOT_A_LOG_PROB_WORDS = frozenset(
    {
        "avg", "average", "baseline", "delta", "diff", "entropy", "grad", "kl", "logsumexp",
        "logz", "loss", "lse", "mask", "max", "mean", "median", "min", "norm", "normaliser",
        "normalizer", "partition", "ratio", "ratios", "std", "total", "var",
    }
)
# Words after "log" that make a name a log-ratio: log_ratio, log_rho, log_weight.
RATIO_WORDS = frozenset({"ratio", "ratios", "rho", "rhos", "weight", "weights"})
FUSED_LOG_RATIO_ENDINGS = (
    "logratio", "logratios", "logrho", "logrhos", "logweight", "logweights",
)
# "log_importance_weight", "log_is_ratio", "log_behav_weight": log, then one of these,
# then a ratio word.
QUALIFIER_WORDS = frozenset(
    {
        "behav", "behavior", "behaviour", "importance", "is", "policy", "prob", "sampling",
        "seq", "sequence", "tis", "token",
    }
)
DIFFERENCE_WORDS = frozenset({"delta", "diff", "difference"})
# Words that say a log-ratio-named value is something else (`log_weight_decay`) or is
# already bounded (`log_ratio_clamped`, torchrl's `log_weight_clip`).
CLAMPED_WORDS = frozenset(
    {"bounded", "capped", "clamp", "clamped", "clip", "clipped", "safe", "truncated"}
)
# Words that say a log-probability belongs to a reference model or a preference pair: their
# differences (DPO scores, KL to a reference, distillation) are not PPO/IS ratios, and
# sequence-level ones past +-20 are ordinary there, where the clamp would change the loss.
REFERENCE_WORDS = frozenset({"chosen", "ref", "reference", "rejected", "student", "teacher"})
NOT_A_LOG_RATIO_WORDS = CLAMPED_WORDS | REFERENCE_WORDS | {"decay", "init", "initial", "prior"}

# Methods and torch functions that keep a log-probability (or log-ratio) one: a sum over
# action dimensions is the joint log-probability; the others change shape, dtype, device
# or the autograd graph only.
TRANSPARENT_METHODS = frozenset(
    {
        "bfloat16", "clone", "contiguous", "cpu", "cuda", "detach", "double", "flatten",
        "float", "half", "reshape", "reshape_as", "squeeze", "sum", "to", "type_as",
        "unsqueeze", "view", "view_as",
    }
)
TRANSPARENT_TORCH_FUNCTIONS = frozenset({"flatten", "reshape", "squeeze", "sum", "unsqueeze"})
LOG_PROB_METHODS = frozenset({"log_prob", "log_probs", "logprob", "logprobs"})

# clamp spellings: method name → (bounded above, bounded below) when no argument says more.
CLAMP_METHODS = frozenset({"clamp", "clamp_", "clip", "clip_"})
UPPER_CLAMP_METHODS = frozenset({"clamp_max", "clamp_max_"})
LOWER_CLAMP_METHODS = frozenset({"clamp_min", "clamp_min_"})
IN_PLACE_CLAMP_METHODS = frozenset({"clamp_", "clip_", "clamp_max_", "clamp_min_"})
CLAMP_FUNCTIONS = frozenset({"clamp", "clip"})
GRAD_FREE_CONTEXTS = frozenset({"inference_mode", "no_grad"})
# A ratio inside a comparison or one of these is a check, which must see the real value.
CHECK_FUNCTIONS = frozenset(
    {"allclose", "isclose", "isfinite", "isinf", "isnan", "isneginf", "isposinf"}
)

_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def name_parts(identifier: str) -> list[str]:
    """`newLogProb_old2` → ["new", "log", "prob", "old"]: lower-case words, no numbers."""
    words = (word.lower() for part in identifier.split("_") for word in _WORD.findall(part))
    return [word.rstrip("0123456789") or word for word in words]  # logp1 is a logp


def is_log_prob_name(identifier: str) -> bool:
    """`log_prob`, `b_logprobs`, `logp_old`, `log_pi`, `action_neglog_probs`, ..."""
    parts = name_parts(identifier)
    return not NOT_A_LOG_PROB_WORDS.intersection(parts) and _names_log_prob(parts)


def _names_log_prob(parts: list[str]) -> bool:
    for index, part in enumerate(parts):
        if part.endswith(FUSED_LOG_PROB_ENDINGS):
            return True
        following = parts[index + 1] if index + 1 < len(parts) else ""
        if part in ("log", "neglog") and following in PROBABILITY_WORDS:
            return True
    return False


def is_log_ratio_name(identifier: str) -> bool:
    """`log_ratio`, `logratio`, `log_rho`, `log_weight`, `log_importance_weights`,
    `log_behav_weight`, `logps_diff`, ..."""
    parts = name_parts(identifier)
    if NOT_A_LOG_RATIO_WORDS.intersection(parts):
        return False
    for index, part in enumerate(parts):
        if part.endswith(FUSED_LOG_RATIO_ENDINGS):
            return True
        following = parts[index + 1 : index + 3]
        if part == "log" and following[:1] and following[0] in RATIO_WORDS:
            return True
        if part == "log" and len(following) == 2 and following[0] in QUALIFIER_WORDS and (
            following[1] in RATIO_WORDS
        ):
            return True
    # `logps_diff`: a difference of log-probabilities, if nothing else is in the name
    return (
        bool(DIFFERENCE_WORDS.intersection(parts))
        and not (NOT_A_LOG_PROB_WORDS - DIFFERENCE_WORDS).intersection(parts)
        and _names_log_prob(parts)
    )


class Kind(enum.Enum):
    """What an expression is, as far as exp overflow goes."""

    DIFFERENCE = "difference"  # new minus old log-probabilities: a log-ratio for sure
    REFERENCE = "reference"  # log-probabilities minus a reference model's (or chosen/rejected)
    NAMED = "named"  # only its name says it is a log-ratio
    LOWER_CLAMPED = "lower-clamped"  # a log-ratio clamped from below only
    CLAMPED = "clamped"  # bounded above already
    OTHER = "other"


@dataclass
class _Binding:
    """What the assignments to one name in one scope say, in source order so far."""

    kind: Kind = Kind.OTHER
    ever_clamped: bool = False  # any clamp, even in one branch, means the author saw to it


class ClampLogRatio(TorchfixCodemod):
    """Clamp log-probability ratios before `exp`, so PPO/importance-sampling losses stay finite.

    ## What it does
    Rewrites `torch.exp(X)` and `X.exp()`, where `X` is a log-ratio of probabilities
    (`new_log_prob - old_log_prob`), into `torch.exp(torch.clamp(X, min=-20.0, max=20.0))`
    and `X.clamp(-20.0, 20.0).exp()`.

    ## Why
    In float32, `exp` overflows to `inf` once its argument passes ~88. One stale or
    off-policy sample whose log-probabilities differ that much makes the PPO ratio `inf`,
    the clipped surrogate `inf` or its gradient `0 * inf = NaN`, and the optimizer step
    writes NaN into every weight before any ratio statistic or early-stopping check can
    fire. Clamping the log-ratio to `[-20, 20]` (a ratio between 2e-9 and 5e8, far outside
    any PPO clip range) changes nothing for ordinary samples, bit for bit, and turns the
    pathological ones into finite values whose gradient is zero.

    ## Example
    ```python
    logratio = newlogprob - b_logprobs[mb_inds]
    ratio = logratio.exp()
    ratio = torch.exp(new_log_probs - old_log_probs)
    ```
    becomes
    ```python
    logratio = newlogprob - b_logprobs[mb_inds]
    ratio = logratio.clamp(-20.0, 20.0).exp()
    ratio = torch.exp(torch.clamp(new_log_probs - old_log_probs, min=-20.0, max=20.0))
    ```

    ## Fix safety
    The fix is **safe** when `X` is a difference of two log-probabilities: both operands
    are named as log-probabilities (`log_prob`, `logp`, `logprobs`, `log_pi`, `newlogprob`,
    `neglogp`, `old_log_probs[key]`, `batch.old_log_prob`, ...) or are `.log_prob(...)`
    calls, written inline or assigned to the name earlier in the same function. It is
    **unsafe** when only a name says `X` is a log-ratio (`log_ratio`, `logratio`,
    `log_rho`, `log_weight`, `log_importance_weights`, `log_behav_weight`, `logps_diff`):
    such a name can hold something else, e.g. mixture log-weights whose tiny values the
    lower bound would change. Such names count only in files that name log-probabilities
    somewhere, and not under `no_grad`, where a ratio is usually logged.

    Left alone: anything else (`torch.exp(log_std)`, `log_alpha.exp()`, `exp(-x)`);
    log-ratios already clamped (`torch.clamp`, `torch.clip`, `.clamp`, `.clamp_`, `.clip`,
    `.clamp_max`, with keywords or positions, in the expression or in an earlier
    assignment to the same name, or computed from clamped values); `exp` results clamped
    from above; ratios inside comparisons, conditions and `isinf`/`isfinite` checks,
    which must see the real value; differences against a reference model or a preference
    pair (`ref_`, `chosen_`, `rejected_`, `teacher_`, ...), whose sequence-level values
    pass 20 in ordinary training (DPO); and `np.exp`, `jnp.exp` and `math.exp` (no
    autograd NaN there; `math.exp` raises). Reported, not fixed: a log-ratio clamped from
    below only; and a log-ratio also used outside `exp` in the same statement, like the
    KL estimate `exp(x) - 1 - x`, whose terms would disagree after the clamp (clamp `x`
    once instead), except under `no_grad`, where it only feeds a statistic.

    The clamped values keep their dtype, device and autograd graph; where the clamp is
    active the gradient of that element is zero instead of `inf`/`NaN`. In float16,
    `exp` overflows past ~11: set a lower `bound` for half-precision ratios.
    """

    name = "clamp-log-ratio"
    summary = "Clamp log-probability ratios before exp so PPO/IS losses cannot overflow to NaN."
    triggers = (b".exp(",)
    fix_safety = "safe, unsafe"
    options = (
        Option(
            "bound",
            DEFAULT_BOUND,
            "The log-ratio is clamped to [-bound, bound] before exp (20.0: ratios within "
            "2e-9 and 5e8).",
            check=lambda value: _checked_bound(value),
        ),
    )

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        # The exp calls whose operand names a log-probability or log-ratio, or is a name
        # assigned from one; plus the assignments that say what such a name holds at the
        # exp (an earlier clamp, a copy of another name).
        exps: list[tuple[int, ast.expr]] = []
        bindings: dict[str, list[tuple[int, ast.expr | None]]] = {}
        for node in walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                if not isinstance(func, ast.Attribute):
                    continue
                if func.attr == "exp":
                    operand = _ast_exp_operand(node)
                    if operand is not None:
                        exps.append((node.lineno, operand))
                elif func.attr in IN_PLACE_CLAMP_METHODS and isinstance(func.value, ast.Name):
                    bindings.setdefault(func.value.id, []).append((node.lineno, None))
            elif isinstance(node, _AST_BINDING_TYPES):
                for target, value in _ast_bindings(node):
                    for name in _ast_names(target):
                        bindings.setdefault(name, []).append((node.lineno, value))
        if not exps:
            return set()
        derived: dict[str, bool] = {}  # whether a name is assigned from something loggy

        def is_derived(name: str) -> bool:
            if name not in derived:
                derived[name] = False  # a cycle of copies adds nothing
                derived[name] = any(
                    value is not None and (
                        _ast_loggy(value)
                        or ((root := _ast_root(value)) is not None and is_derived(root))
                    )
                    for _, value in bindings.get(name, ())
                )
            return derived[name]

        lines: set[int] = set()
        wanted: list[str] = []
        for line, operand in exps:
            root = _ast_root(operand)
            if _ast_loggy(operand) or (root is not None and is_derived(root)):
                lines.add(line)
                wanted.extend(name for name in (root, *_ast_loggy_names(operand)) if name)
        seen: set[str] = set()
        while wanted:
            name = wanted.pop()
            if name in seen:
                continue
            seen.add(name)
            for line, value in bindings.get(name, ()):
                lines.add(line)
                if value is not None:
                    wanted.extend(n for n in (_ast_root(value), *_ast_loggy_names(value)) if n)
        return lines

    def __init__(self, context: CodemodContext, settings: CodemodSettings | None = None) -> None:
        super().__init__(context, settings)
        self._bound = DEFAULT_BOUND  # checked in transform_module_impl, where errors are caught
        self._torch_names = _torch_aliases(self.settings.python_tree)
        self._scopes: list[dict[str, _Binding]] = [{}]
        self._guarded: set[cst.Call] = set()  # exp calls whose result is clamped from above
        self._has_log_probs: bool | None = None
        self._checks = 0  # how many comparisons, conditions and isinf()s enclose the node
        self._check_calls: set[cst.Call] = set()

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        # The configuration already rejected a bad bound (Option.check); this also guards
        # callers that build settings by hand.
        self._bound = _checked_bound(self.option("bound"))
        return super().transform_module_impl(tree)

    # -- scopes and what their names hold -----------------------------------------------

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._scopes.append({})

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.FunctionDef:
        self._scopes.pop()
        return updated_node

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._scopes.append({})

    def leave_ClassDef(
        self, original_node: cst.ClassDef, updated_node: cst.ClassDef
    ) -> cst.ClassDef:
        self._scopes.pop()
        return updated_node

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        kind = self._binding_kind(original_node.value)
        for target in original_node.targets:
            self._bind_target(target.target, kind)
        return updated_node

    def leave_AnnAssign(
        self, original_node: cst.AnnAssign, updated_node: cst.AnnAssign
    ) -> cst.AnnAssign:
        if original_node.value is not None:
            self._bind_target(original_node.target, self._binding_kind(original_node.value))
        return updated_node

    def leave_AugAssign(
        self, original_node: cst.AugAssign, updated_node: cst.AugAssign
    ) -> cst.AugAssign:
        self._bind_target(original_node.target, Kind.OTHER)
        return updated_node

    def leave_NamedExpr(
        self, original_node: cst.NamedExpr, updated_node: cst.NamedExpr
    ) -> cst.NamedExpr:
        self._bind_target(original_node.target, self._binding_kind(original_node.value))
        return updated_node

    def visit_For(self, node: cst.For) -> None:
        self._bind_target(node.target, Kind.OTHER)

    def visit_With(self, node: cst.With) -> None:
        for item in node.items:
            if item.asname is not None:
                self._bind_target(item.asname.name, Kind.OTHER)

    def _binding_kind(self, value: cst.BaseExpression) -> Kind:
        """What a name assigned `value` holds. A value computed from a clamped one, such as
        the mean of clipped token log-ratios, counts as clamped: its author bounded it."""
        kind = self._kind(value)
        if kind is not Kind.OTHER:
            return kind
        for node, parent, _ in _walk(value):
            if isinstance(parent, (cst.Attribute, cst.Arg)) and node is not parent.value:
                continue  # `x.clamp`, `f(min=...)`: not a value's name
            if isinstance(node, cst.Name) and (
                CLAMPED_WORDS.intersection(name_parts(node.value))
                or self._kind(node) is Kind.CLAMPED
            ):
                return Kind.CLAMPED
        return Kind.OTHER

    def _bind_target(self, target: cst.BaseExpression, kind: Kind) -> None:
        if isinstance(target, cst.Name):
            binding = self._scopes[-1].setdefault(target.value, _Binding())
            binding.kind = kind
            binding.ever_clamped = binding.ever_clamped or kind is Kind.CLAMPED
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind_target(element.value, Kind.OTHER)
        elif isinstance(target, cst.StarredElement):
            self._bind_target(target.value, Kind.OTHER)

    # -- checks: `if ratio.max() > 1e3: raise ...` must keep seeing the unclamped ratio ---

    def visit_Comparison(self, node: cst.Comparison) -> None:
        self._checks += 1

    def leave_Comparison(
        self, original_node: cst.Comparison, updated_node: cst.Comparison
    ) -> cst.Comparison:
        self._checks -= 1
        return updated_node

    def visit_If_test(self, node: cst.If) -> None:
        self._checks += 1

    def leave_If_test(self, node: cst.If) -> None:
        self._checks -= 1

    def visit_While_test(self, node: cst.While) -> None:
        self._checks += 1

    def leave_While_test(self, node: cst.While) -> None:
        self._checks -= 1

    def visit_Assert_test(self, node: cst.Assert) -> None:
        self._checks += 1

    def leave_Assert_test(self, node: cst.Assert) -> None:
        self._checks -= 1

    def visit_IfExp_test(self, node: cst.IfExp) -> None:
        self._checks += 1

    def leave_IfExp_test(self, node: cst.IfExp) -> None:
        self._checks -= 1

    # -- the rewrite ---------------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        if m.matches(node.func, m.Attribute(attr=m.OneOf(*map(m.Name, CHECK_FUNCTIONS)))) or (
            m.matches(node.func, m.OneOf(*map(m.Name, CHECK_FUNCTIONS)))
        ):
            self._checks += 1
            self._check_calls.add(node)
        clamp = self._clamp(node)
        if clamp is None:
            if m.matches(node.func, m.Attribute(attr=m.Name("nan_to_num"))):
                self._guarded.add(node.func.value)  # type: ignore[attr-defined]
            return
        clamped, upper = clamp
        if upper:
            self._guarded.add(clamped)  # type: ignore[arg-type]
        if m.matches(node.func, m.Attribute(attr=m.Name(), value=m.Name())):
            method = node.func.attr.value  # type: ignore[attr-defined]
            if method in IN_PLACE_CLAMP_METHODS:  # `log_ratio.clamp_(-20, 20)`
                self._bind_target(clamped, self._kind(node))

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if original_node in self._check_calls:
            self._checks -= 1
        operand = self._exp_operand(original_node)
        if operand is None or self._checks:
            return updated_node
        kind = self._kind(operand)
        if kind is Kind.LOWER_CLAMPED:
            self.report(
                original_node,
                "the log-ratio is clamped from below only, so exp can still overflow to inf: "
                "give the clamp an upper bound",
            )
            return updated_node
        if kind not in (Kind.DIFFERENCE, Kind.REFERENCE, Kind.NAMED):
            return updated_node
        if original_node in self._guarded:
            return updated_node
        if self._used_outside_exp(operand):
            if kind is not Kind.NAMED and not self._gradient_free():
                self.report(
                    original_node,
                    "the log-ratio is also used outside exp here (a KL estimate?): clamp it "
                    "once, before both uses, so that the terms agree",
                )
            return updated_node
        if kind is Kind.REFERENCE:
            return updated_node
        if kind is Kind.NAMED and (not self._file_has_log_probs() or self._gradient_free()):
            # kornia's `log_ratio` is a log aspect ratio; and a ratio computed without
            # gradients on a name's word alone is most likely logged (torchrl's max_ratio)
            return updated_node
        bound = repr(self._bound)
        message = (
            f"clamp the log-ratio to [-{bound}, {bound}] before exp: exp overflows to inf "
            "past ~88 and the loss or its gradient turns NaN"
        )
        safety = Safety.SAFE
        if kind is Kind.NAMED:
            safety = Safety.UNSAFE
            message += " (only its name says it is a log-ratio)"
        return self.fix(original_node, updated_node, self._clamped(updated_node), message, safety)

    def _clamped(self, call: cst.Call) -> cst.Call:
        """The exp call with its operand clamped: `X.clamp(-B, B).exp()` or
        `torch.exp(torch.clamp(X, min=-B, max=B))`."""
        func = call.func
        assert isinstance(func, cst.Attribute)
        lower = cst.UnaryOperation(cst.Minus(), cst.Float(repr(self._bound)))
        upper = cst.Float(repr(self._bound))
        if not call.args:
            clamp = cst.Call(
                func=cst.Attribute(value=func.value, attr=cst.Name("clamp")),
                args=[cst.Arg(lower, comma=_comma()), cst.Arg(upper)],
            )
            return call.with_changes(func=func.with_changes(value=clamp))
        argument = call.args[0]
        clamp_func = cst.Attribute(value=func.value.deep_clone(), attr=cst.Name("clamp"))
        exploded = self._exploded_clamp(call, clamp_func, lower, upper)
        if exploded is not None:
            return call.with_changes(args=[exploded])
        clamp = cst.Call(
            func=clamp_func,
            args=[
                cst.Arg(argument.value, comma=_comma()),
                keyword("min", lower).with_changes(comma=_comma()),
                keyword("max", upper),
            ],
        )
        return call.with_changes(args=[argument.with_changes(value=clamp)])

    def _exploded_clamp(
        self,
        call: cst.Call,
        clamp_func: cst.Attribute,
        lower: cst.BaseExpression,
        upper: cst.BaseExpression,
    ) -> cst.Arg | None:
        """For an operand of several lines in an exploded `torch.exp(...)`, the clamp call
        exploded too, one argument a line, with the operand indented one level deeper and
        its end-of-line comment kept after it; None for any other layout."""
        argument = call.args[0]
        before = call.whitespace_before_args
        comma = argument.comma
        after = comma.whitespace_after if isinstance(comma, cst.Comma) else (
            argument.whitespace_after_arg
        )
        if not (
            isinstance(before, cst.ParenthesizedWhitespace)
            and isinstance(after, cst.ParenthesizedWhitespace)
            and "\n" in _EMPTY_MODULE.code_for_node(argument.value)
        ):
            return None
        wrapper = self.context.wrapper
        unit = wrapper.module.default_indent if wrapper is not None else "    "
        outer, inner = before.last_line.value, before.last_line.value + unit
        operand = argument.value.visit(_Reindent(unit))
        assert isinstance(operand, cst.BaseExpression)
        clamp = cst.Call(
            func=clamp_func,
            whitespace_before_args=_line_break(inner),
            args=[
                cst.Arg(operand, comma=cst.Comma(
                    whitespace_after=_line_break(inner, after.first_line)
                )),
                keyword("min", lower).with_changes(
                    comma=cst.Comma(whitespace_after=_line_break(inner))
                ),
                keyword("max", upper).with_changes(
                    comma=cst.Comma(whitespace_after=_line_break(outer))
                ),
            ],
        )
        rest = after.with_changes(first_line=cst.TrailingWhitespace())  # the comment moved
        if isinstance(comma, cst.Comma):
            return argument.with_changes(value=clamp, comma=comma.with_changes(
                whitespace_after=rest
            ))
        return argument.with_changes(value=clamp, whitespace_after_arg=rest)

    # -- what an expression is -------------------------------------------------------------

    def _exp_operand(self, call: cst.Call) -> cst.BaseExpression | None:
        """X in `X.exp()` or `torch.exp(X)`; None for any other call."""
        func = call.func
        if not m.matches(func, m.Attribute(attr=m.Name("exp"))):
            return None
        assert isinstance(func, cst.Attribute)
        if not call.args:
            if self._is_torch(func.value):
                return None
            return func.value
        if len(call.args) == 1 and self._is_torch(func.value):
            argument = call.args[0]
            if argument.keyword is None and not argument.star:
                return argument.value
        return None

    def _kind(self, node: cst.BaseExpression) -> Kind:
        node = self._unwrapped(node)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Subtract):
            left, right = self._unwrapped(node.left), self._unwrapped(node.right)
            if (
                self._is_log_prob(left)
                and self._is_log_prob(right)
                and _key(left) != _key(right)  # `lp - lp.detach()` is the score-function trick
            ):
                if any(_mentions_words(side, REFERENCE_WORDS) for side in (left, right)):
                    return Kind.REFERENCE
                return Kind.DIFFERENCE
            return Kind.OTHER
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            # log w1 + log w2 is the log of the product of two ratios
            kinds = {self._kind(node.left), self._kind(node.right)}
            if kinds <= {Kind.DIFFERENCE, Kind.NAMED}:
                return Kind.NAMED if Kind.NAMED in kinds else Kind.DIFFERENCE
            return Kind.OTHER
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            # `exp(-x)` shows up in f-divergence and KL formulas rather than in ratios; a
            # lower bound on x bounds it (openrlhf's k3 estimate), and it is left alone.
            inner = self._kind(node.expression)
            return Kind.CLAMPED if inner in (Kind.CLAMPED, Kind.LOWER_CLAMPED) else Kind.OTHER
        if isinstance(node, cst.IfExp):
            return _most_cautious(self._kind(node.body), self._kind(node.orelse))
        if isinstance(node, cst.Call):
            clamp = self._clamp(node)
            if clamp is None:
                return Kind.OTHER
            clamped, upper = clamp
            if upper:
                return Kind.CLAMPED
            inner = self._kind(clamped)
            if inner in (Kind.DIFFERENCE, Kind.NAMED, Kind.LOWER_CLAMPED):
                return Kind.LOWER_CLAMPED
            return Kind.OTHER
        if isinstance(node, cst.Subscript):
            return self._kind(node.value)
        if isinstance(node, cst.Name):
            binding = self._scopes[-1].get(node.value)
            if binding is not None:
                if binding.ever_clamped:
                    return Kind.CLAMPED
                if binding.kind is not Kind.OTHER:
                    return binding.kind
            return Kind.NAMED if is_log_ratio_name(node.value) else Kind.OTHER
        if isinstance(node, cst.Attribute):
            return Kind.NAMED if is_log_ratio_name(node.attr.value) else Kind.OTHER
        return Kind.OTHER

    def _is_log_prob(self, node: cst.BaseExpression) -> bool:
        while isinstance(node, cst.Subscript):  # old_log_probs[key], b_logprobs[mb_inds]
            node = self._unwrapped(node.value)
        if isinstance(node, cst.Name):
            return is_log_prob_name(node.value)
        if isinstance(node, cst.Attribute):
            return is_log_prob_name(node.attr.value)
        if isinstance(node, cst.Call):  # dist.log_prob(actions)
            func = node.func
            name = func.attr.value if isinstance(func, cst.Attribute) else (
                func.value if isinstance(func, cst.Name) else ""
            )
            return name in LOG_PROB_METHODS
        return False

    def _unwrapped(self, node: cst.BaseExpression) -> cst.BaseExpression:
        """`x.detach().squeeze(-1)` → `x`; `torch.squeeze(x)` → `x`."""
        while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            method = node.func.attr.value
            if self._is_torch(node.func.value):
                if method not in TRANSPARENT_TORCH_FUNCTIONS or not node.args:
                    break
                node = node.args[0].value
            elif method in TRANSPARENT_METHODS:
                node = node.func.value
            else:
                break
        return node

    def _clamp(self, call: cst.Call) -> tuple[cst.BaseExpression, bool] | None:
        """(what is clamped, whether from above) for a clamp call; None for other calls."""
        func = call.func
        if not isinstance(func, cst.Attribute):
            return None
        method = func.attr.value
        if self._is_torch(func.value):
            if method not in CLAMP_FUNCTIONS | UPPER_CLAMP_METHODS | LOWER_CLAMP_METHODS:
                return None
            if not call.args or call.args[0].keyword is not None or call.args[0].star:
                return None
            return call.args[0].value, _bounded_above(method, call.args[1:])
        if method in CLAMP_METHODS | UPPER_CLAMP_METHODS | LOWER_CLAMP_METHODS:
            return func.value, _bounded_above(method, call.args)
        return None

    def _file_has_log_probs(self) -> bool:
        """Whether the file names log-probabilities anywhere: a `log_ratio` in a file that
        does not is rarely a ratio of probabilities."""
        if self._has_log_probs is None:
            tree = self.settings.python_tree
            self._has_log_probs = tree is None or any(
                (isinstance(node, ast.Name) and _is_log_prob_identifier(node.id))
                or (isinstance(node, ast.Attribute) and (
                    _is_log_prob_identifier(node.attr) or node.attr in LOG_PROB_METHODS
                ))
                or (isinstance(node, ast.arg) and _is_log_prob_identifier(node.arg))
                for node in walk(tree)
            )
        return self._has_log_probs

    def _is_torch(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Name) and node.value in self._torch_names

    # -- the statement around the exp --------------------------------------------------------

    def _used_outside_exp(self, operand: cst.BaseExpression) -> bool:
        """Whether the statement uses the log-ratio again, other than as an exp operand:
        `exp(x) - 1 - x` and `(-x).exp() - 1 + x` both use `x` twice."""
        if not self._statements:
            return False
        statement = self._statements[-1]
        roots = [statement] if isinstance(statement, cst.SimpleStatementLine) else [
            child for child in statement.children
            if not isinstance(child, (cst.BaseSuite, cst.Else, cst.ExceptHandler, cst.Finally))
        ]
        core = _without_minus(operand)
        wanted = _key(core)
        nodes = [entry for root in roots for entry in _walk(root)]
        exp_operands = {
            id(_without_minus(exp_operand))
            for node, _, _ in nodes
            if isinstance(node, cst.Call)
            and (exp_operand := self._exp_operand(node)) is not None
        }
        for node, parent, _ in nodes:
            if type(node) is not type(core) or id(node) in exp_operands:
                continue
            if isinstance(parent, (cst.Attribute, cst.Arg)) and node is not parent.value:
                continue  # `batch.log_ratio`, `f(log_ratio=...)`: other things
            if _key(node) == wanted:
                return True
        return False

    def _gradient_free(self) -> bool:
        """Inside `with torch.no_grad():` or a function decorated with it."""
        grad_free = m.Call(func=m.Attribute(attr=m.OneOf(*map(m.Name, GRAD_FREE_CONTEXTS))))
        for statement in self._statements:
            if isinstance(statement, cst.With) and any(
                m.matches(item.item, grad_free) for item in statement.items
            ):
                return True
            if isinstance(statement, cst.FunctionDef) and any(
                m.matches(decorator.decorator, grad_free) for decorator in statement.decorators
            ):
                return True
        return False


_CAUTION = (
    Kind.CLAMPED, Kind.OTHER, Kind.REFERENCE, Kind.LOWER_CLAMPED, Kind.NAMED, Kind.DIFFERENCE
)


def _most_cautious(*kinds: Kind) -> Kind:
    """What a value that is one of these is: clamped if any is, a log-ratio if all are."""
    return min(kinds, key=_CAUTION.index)


def _bounded_above(method: str, args: Sequence[cst.Arg]) -> bool:
    if method in UPPER_CLAMP_METHODS:
        return True
    if method in LOWER_CLAMP_METHODS:
        return False
    if any(arg.star for arg in args):
        return True  # `log_weight.clamp(*self._clip_bounds)`: cannot tell; trust the author
    for arg in args:
        if arg.keyword is not None and arg.keyword.value == "max":
            return not m.matches(arg.value, m.Name("None"))
    positional = [arg for arg in args if arg.keyword is None]
    return len(positional) >= 2 and not m.matches(positional[1].value, m.Name("None"))


def _mentions_words(node: cst.CSTNode, words: frozenset[str]) -> bool:
    """Whether a name or attribute in the expression has one of these words."""
    return any(
        isinstance(child, cst.Name) and words.intersection(name_parts(child.value))
        for child, _, _ in _walk(node)
    )


def _without_minus(node: cst.BaseExpression) -> cst.BaseExpression:
    while isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return node


def _checked_bound(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"clamp-log-ratio: bound must be a number, got {value!r}")
    bound = float(value)
    if not math.isfinite(bound) or bound <= 0:
        raise ValueError(f"clamp-log-ratio: bound must be positive and finite, got {value!r}")
    return bound


def _line_break(
    indent: str, first_line: cst.TrailingWhitespace | None = None
) -> cst.ParenthesizedWhitespace:
    """A line break inside brackets, the next line at `indent` past the block's indent."""
    return cst.ParenthesizedWhitespace(
        first_line=first_line or cst.TrailingWhitespace(),
        indent=True,
        last_line=cst.SimpleWhitespace(indent),
    )


class _Reindent(cst.CSTTransformer):
    """Indent every continuation line of an expression by one more level."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self._unit = unit

    def leave_ParenthesizedWhitespace(
        self, original_node: cst.ParenthesizedWhitespace, updated_node: cst.ParenthesizedWhitespace
    ) -> cst.ParenthesizedWhitespace:
        return updated_node.with_changes(
            last_line=cst.SimpleWhitespace(updated_node.last_line.value + self._unit)
        )


def _comma() -> cst.Comma:
    return cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


_EMPTY_MODULE = cst.Module(body=[])


def _key(node: cst.CSTNode) -> str:
    """The code of an expression without outer parentheses or whitespace, for comparing."""
    if isinstance(node, cst.BaseExpression) and (node.lpar or node.rpar):
        node = node.with_changes(lpar=[], rpar=[])
    return "".join(_EMPTY_MODULE.code_for_node(node).split())


def _walk(
    root: cst.CSTNode,
) -> Iterator[tuple[cst.CSTNode, cst.CSTNode | None, cst.CSTNode | None]]:
    """Every node under `root`, with its parent and grandparent."""
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None, cst.CSTNode | None]] = [
        (root, None, None)
    ]
    while stack:
        node, parent, grandparent = stack.pop()
        yield node, parent, grandparent
        stack.extend((child, node, parent) for child in node.children)


def _torch_aliases(tree: ast.Module | None) -> frozenset[str]:
    """The names `torch` is imported as in this file (`torch`, `th`, ...)."""
    if tree is None:
        return frozenset({"torch"})
    names = set()
    for node in nodes_of(tree, ast.Import):
        for alias in node.names:
            if alias.name == "torch":
                names.add(alias.asname or "torch")
            elif alias.name.startswith("torch.") and alias.asname is None:
                names.add("torch")
    return frozenset(names)


def _ast_exp_operand(call: ast.Call) -> ast.expr | None:
    func = call.func
    assert isinstance(func, ast.Attribute)
    if not call.args and not call.keywords:
        return func.value
    if len(call.args) == 1 and not call.keywords and isinstance(func.value, ast.Name):
        return call.args[0]
    return None


# What `torch` is usually imported as; candidate_lines has no import facts, and a miss only
# costs a candidate line.
_LIKELY_TORCH_NAMES = frozenset({"T", "th", "torch"})


def _ast_root(node: ast.expr) -> str | None:
    """The name a value comes from: `lr[mask].detach()` → "lr"; None for other values."""
    while True:
        if isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method = node.func.attr
            through = TRANSPARENT_METHODS | CLAMP_METHODS | UPPER_CLAMP_METHODS | (
                LOWER_CLAMP_METHODS
            )
            if method not in through:
                return None
            receiver = node.func.value
            if isinstance(receiver, ast.Name) and receiver.id in _LIKELY_TORCH_NAMES:
                if not node.args:
                    return None
                node = node.args[0]  # torch.squeeze(x), torch.clamp(x, ...)
            else:
                node = node.func.value
        elif isinstance(node, ast.Name):
            return node.id
        else:
            return None


def _ast_loggy_names(node: ast.expr) -> Iterator[str]:
    """The names in an expression that are named as log-probabilities or log-ratios."""
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and _is_loggy_identifier(child.id):
            yield child.id


def _ast_loggy(node: ast.expr) -> bool:
    """Whether an expression mentions a log-probability or log-ratio (cheap, by names)."""
    for child in ast.walk(node):
        identifier = (
            child.id if isinstance(child, ast.Name)
            else child.attr if isinstance(child, ast.Attribute)
            else ""
        )
        if identifier and (
            _is_loggy_identifier(identifier) or identifier in LOG_PROB_METHODS
        ):
            return True
    return False


@functools.lru_cache(maxsize=4096)
def _is_log_prob_identifier(identifier: str) -> bool:
    return "log" in identifier.lower() and is_log_prob_name(identifier)


@functools.lru_cache(maxsize=4096)
def _is_loggy_identifier(identifier: str) -> bool:
    return "log" in identifier.lower() and (
        is_log_prob_name(identifier) or is_log_ratio_name(identifier)
    )


_AST_BINDING_TYPES = (
    ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr, ast.For, ast.AsyncFor, ast.With,
    ast.AsyncWith,
)


def _ast_bindings(node: ast.AST) -> Iterator[tuple[ast.expr, ast.expr | None]]:
    """(target, value) of each binding `node` makes; value None when there is none to read."""
    if isinstance(node, ast.Assign):
        for target in node.targets:
            yield target, node.value
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
        yield node.target, node.value
    elif isinstance(node, (ast.For, ast.AsyncFor)):
        yield node.target, None
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        for item in node.items:
            if item.optional_vars is not None:
                yield item.optional_vars, None


def _ast_names(node: ast.expr) -> Iterator[str]:
    for child in ast.walk(node):
        if isinstance(child, ast.Name):
            yield child.id
