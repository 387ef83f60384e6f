"""The codemods, one module each, in the order they run on a file.

To add one: write `codemods/<family>/<name>.py` (see `torchfix.rewrite.contract.Codemod`
for the contract), add its class here, and give it a `golden/<name>/` folder.
"""

from codemods.assertions.assert_to_raise import AssertToRaise
from codemods.checkpoints.atomic_save import AtomicSave
from codemods.checkpoints.load_weights_only import LoadWeightsOnly
from codemods.checkpoints.strict_load_state_dict import StrictLoadStateDict
from codemods.correctness.checkpoint_use_reentrant import CheckpointUseReentrant
from codemods.correctness.detach_before_numpy import DetachBeforeNumpy
from codemods.correctness.layernorm_channels import LayernormChannels
from codemods.correctness.require_grad_typo import RequireGradTypo
from codemods.correctness.swallowed_exception import SwallowedException
from codemods.correctness.typing_any import TypingAny
from codemods.data.dataloader_workers import DataloaderWorkers
from codemods.data.non_public_api import NonPublicApi
from codemods.deprecations.deprecated_api import DeprecatedApi
from codemods.deprecations.removed_api import RemovedApi
from codemods.internal.scoped_library import ScopedLibrary
from codemods.migrations.amp_api import AmpApi
from codemods.migrations.autocast_device import AutocastDevice
from codemods.migrations.dcp_save_load import DcpSaveLoad
from codemods.migrations.scheduler_verbose import LrSchedulerVerbose
from codemods.migrations.sdpa_kernel import SdpaKernel
from codemods.numerics.atanh_clamp import AtanhClamp
from codemods.numerics.clamp_log_ratio import ClampLogRatio
from codemods.numerics.exp_overflow import ExpOverflow
from codemods.numerics.expm1 import Expm1
from codemods.numerics.log1p import Log1p
from codemods.numerics.logsumexp import Logsumexp
from codemods.numerics.quantile_not_kthvalue import QuantileNotKthvalue
from codemods.performance.hoist_mask_constant import HoistMaskConstant
from codemods.performance.zero_grad_set_to_none import ZeroGradSetToNone
from codemods.vision.pretrained_weights import TorchvisionPretrained
from codemods.vision.singleton_import import TorchvisionSingletonImport
from codemods.vision.to_tensor import TorchvisionToTensor
from torchfix.rewrite.contract import Codemod

CODEMODS: tuple[type[Codemod], ...] = (
    AmpApi,
    AssertToRaise,
    StrictLoadStateDict,
    HoistMaskConstant,
    ClampLogRatio,
    AtomicSave,
    # The seeds' other review findings (issue 18).
    DetachBeforeNumpy,
    TypingAny,
    SwallowedException,
    ExpOverflow,
    QuantileNotKthvalue,
    AtanhClamp,
    LayernormChannels,
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
