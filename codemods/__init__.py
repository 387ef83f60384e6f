"""The codemods, one module each, in the order they run on a file.

To add one: write `codemods/<family>/<name>.py` (see `torchfix.rewrite.contract.Codemod`
for the contract), add it to `RUN_ORDER` here, run `python -m torchfix.rewrite.manifest`
(which writes `manifest.py`, what the engine reads without importing any codemod), and
give it a `golden/<name>/` folder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from torchfix.rewrite.contract import Codemod

# "module:Class", the module relative to this package.
RUN_ORDER: tuple[str, ...] = (
    ".migrations.amp_api:AmpApi",
    ".assertions.assert_to_raise:AssertToRaise",
    ".checkpoints.strict_load_state_dict:StrictLoadStateDict",
    ".performance.hoist_mask_constant:HoistMaskConstant",
    ".numerics.clamp_log_ratio:ClampLogRatio",
    ".checkpoints.atomic_save:AtomicSave",
    # The seeds' other review findings (issue 18).
    ".correctness.detach_before_numpy:DetachBeforeNumpy",
    ".correctness.typing_any:TypingAny",
    ".correctness.swallowed_exception:SwallowedException",
    ".numerics.exp_overflow:ExpOverflow",
    ".numerics.quantile_not_kthvalue:QuantileNotKthvalue",
    ".numerics.atanh_clamp:AtanhClamp",
    ".correctness.layernorm_channels:LayernormChannels",
    # TorchFix's rules and the torch 2.x migrations (issue 17).
    ".deprecations.removed_api:RemovedApi",
    ".deprecations.deprecated_api:DeprecatedApi",
    ".data.non_public_api:NonPublicApi",
    ".checkpoints.load_weights_only:LoadWeightsOnly",
    ".correctness.require_grad_typo:RequireGradTypo",
    ".correctness.checkpoint_use_reentrant:CheckpointUseReentrant",
    ".numerics.log1p:Log1p",
    ".numerics.expm1:Expm1",
    ".numerics.logsumexp:Logsumexp",
    ".vision.pretrained_weights:TorchvisionPretrained",
    ".vision.to_tensor:TorchvisionToTensor",
    ".vision.singleton_import:TorchvisionSingletonImport",
    ".data.dataloader_workers:DataloaderWorkers",
    ".performance.zero_grad_set_to_none:ZeroGradSetToNone",
    ".internal.scoped_library:ScopedLibrary",
    ".migrations.sdpa_kernel:SdpaKernel",
    ".migrations.scheduler_verbose:LrSchedulerVerbose",
    ".migrations.dcp_save_load:DcpSaveLoad",
    ".migrations.autocast_device:AutocastDevice",
)


def __getattr__(name: str) -> tuple[type[Codemod], ...]:
    # `CODEMODS`, every codemod class in run order, imports every codemod module: only
    # `torchfix list`, the manifest writer and tests need all of them at once.
    if name != "CODEMODS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    classes = []
    for target in RUN_ORDER:
        module, _, attribute = target.partition(":")
        classes.append(getattr(importlib.import_module(module, __name__), attribute))
    codemods = tuple(classes)
    globals()["CODEMODS"] = codemods
    return codemods


__all__ = ["CODEMODS", "RUN_ORDER"]
