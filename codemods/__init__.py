"""The codemods, one module each, in the order they run on a file.

To add one: write `codemods/<family>/<name>.py` (see `torchfix.rewrite.contract.Codemod`
for the contract), add its class here, and give it a `golden/<name>/` folder.
"""

from torchfix.rewrite.contract import Codemod

from .assertions.assert_to_raise import AssertToRaise
from .checkpoints.atomic_save import AtomicSave
from .checkpoints.load_weights_only import LoadWeightsOnly
from .checkpoints.strict_load_state_dict import StrictLoadStateDict
from .correctness.checkpoint_use_reentrant import CheckpointUseReentrant
from .correctness.detach_before_numpy import DetachBeforeNumpy
from .correctness.layernorm_channels import LayernormChannels
from .correctness.require_grad_typo import RequireGradTypo
from .correctness.swallowed_exception import SwallowedException
from .correctness.typing_any import TypingAny
from .data.dataloader_workers import DataloaderWorkers
from .data.non_public_api import NonPublicApi
from .deprecations.deprecated_api import DeprecatedApi
from .deprecations.removed_api import RemovedApi
from .internal.scoped_library import ScopedLibrary
from .migrations.amp_api import AmpApi
from .migrations.autocast_device import AutocastDevice
from .migrations.dcp_save_load import DcpSaveLoad
from .migrations.scheduler_verbose import LrSchedulerVerbose
from .migrations.sdpa_kernel import SdpaKernel
from .numerics.atanh_clamp import AtanhClamp
from .numerics.clamp_log_ratio import ClampLogRatio
from .numerics.exp_overflow import ExpOverflow
from .numerics.expm1 import Expm1
from .numerics.log1p import Log1p
from .numerics.logsumexp import Logsumexp
from .numerics.quantile_not_kthvalue import QuantileNotKthvalue
from .performance.hoist_mask_constant import HoistMaskConstant
from .performance.zero_grad_set_to_none import ZeroGradSetToNone
from .vision.pretrained_weights import TorchvisionPretrained
from .vision.singleton_import import TorchvisionSingletonImport
from .vision.to_tensor import TorchvisionToTensor

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
