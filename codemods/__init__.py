"""The codemods, one module each, in the order they run on a file.

To add one: write `codemods/<family>/<name>.py` (see `torchfix.rewrite.contract.Codemod`
for the contract), add its class here, and give it a `golden/<name>/` folder.
"""

from codemods.assertions.assert_to_raise import AssertToRaise
from codemods.checkpoints.atomic_save import AtomicSave
from codemods.checkpoints.strict_load_state_dict import StrictLoadStateDict
from codemods.correctness.detach_before_numpy import DetachBeforeNumpy
from codemods.correctness.layernorm_channels import LayernormChannels
from codemods.correctness.swallowed_exception import SwallowedException
from codemods.correctness.typing_any import TypingAny
from codemods.migrations.amp_api import AmpApi
from codemods.numerics.atanh_clamp import AtanhClamp
from codemods.numerics.clamp_log_ratio import ClampLogRatio
from codemods.numerics.exp_overflow import ExpOverflow
from codemods.numerics.quantile_not_kthvalue import QuantileNotKthvalue
from codemods.performance.hoist_mask_constant import HoistMaskConstant
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
)

__all__ = ["CODEMODS"]
