"""The codemods, one module each, in the order they run on a file.

To add one: write `codemods/<name>.py` (see `torchfix.rewrite.codemod.TorchfixCodemod` for the
contract), add its class here, and give it a `golden/<name>/` folder.
"""

from codemods.amp_api import AmpApi
from codemods.assert_to_raise import AssertToRaise
from codemods.atomic_save import AtomicSave
from codemods.checkpoints.load_weights_only import LoadWeightsOnly
from codemods.checkpoints.strict_load_state_dict import StrictLoadStateDict
from codemods.clamp_log_ratio import ClampLogRatio
from codemods.correctness.checkpoint_use_reentrant import CheckpointUseReentrant
from codemods.correctness.require_grad_typo import RequireGradTypo
from codemods.data.dataloader_workers import DataloaderWorkers
from codemods.data.non_public_api import NonPublicApi
from codemods.deprecations.deprecated_api import DeprecatedApi
from codemods.deprecations.removed_api import RemovedApi
from codemods.hoist_mask_constant import HoistMaskConstant
from codemods.internal.scoped_library import ScopedLibrary
from codemods.migrations.autocast_device import AutocastDevice
from codemods.migrations.dcp_save_load import DcpSaveLoad
from codemods.migrations.scheduler_verbose import LrSchedulerVerbose
from codemods.migrations.sdpa_kernel import SdpaKernel
from codemods.numerics.expm1 import Expm1
from codemods.numerics.log1p import Log1p
from codemods.numerics.logsumexp import Logsumexp
from codemods.performance.zero_grad_set_to_none import ZeroGradSetToNone
from codemods.vision.pretrained_weights import TorchvisionPretrained
from codemods.vision.singleton_import import TorchvisionSingletonImport
from codemods.vision.to_tensor import TorchvisionToTensor
from torchfix.rewrite.codemod import TorchfixCodemod

CODEMODS: tuple[type[TorchfixCodemod], ...] = (
    AmpApi,
    AssertToRaise,
    StrictLoadStateDict,
    HoistMaskConstant,
    ClampLogRatio,
    AtomicSave,
    # TorchFix's rules and the torch 2.x migrations (issue 17).
    RemovedApi,
    DeprecatedApi,
    NonPublicApi,
    LoadWeightsOnly,
    RequireGradTypo,
    CheckpointUseReentrant,
    Log1p,
    Expm1,
    Logsumexp,
    TorchvisionPretrained,
    TorchvisionToTensor,
    TorchvisionSingletonImport,
    DataloaderWorkers,
    ZeroGradSetToNone,
    ScopedLibrary,
    SdpaKernel,
    LrSchedulerVerbose,
    DcpSaveLoad,
    AutocastDevice,
)

__all__ = ["CODEMODS"]
