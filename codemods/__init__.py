"""The codemods, one module each, in the order they run on a file.

To add one: write `codemods/<family>/<name>.py` (see `torchfix.rewrite.contract.Codemod`
for the contract), add its class here, and give it a `golden/<name>/` folder.
"""

from torchfix.rewrite.contract import Codemod

from .assertions.assert_to_raise import AssertToRaise
from .checkpoints.atomic_save import AtomicSave
from .checkpoints.strict_load_state_dict import StrictLoadStateDict
from .correctness.detach_before_numpy import DetachBeforeNumpy
from .correctness.layernorm_channels import LayernormChannels
from .correctness.swallowed_exception import SwallowedException
from .correctness.typing_any import TypingAny
from .migrations.amp_api import AmpApi
from .numerics.atanh_clamp import AtanhClamp
from .numerics.clamp_log_ratio import ClampLogRatio
from .numerics.exp_overflow import ExpOverflow
from .numerics.quantile_not_kthvalue import QuantileNotKthvalue
from .performance.hoist_mask_constant import HoistMaskConstant

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
)

__all__ = ["CODEMODS"]
