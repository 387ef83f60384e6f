"""The codemods, one module each, in the order they run on a file.

To add one: write `codemods/<name>.py` (see `torchfix.codemod.TorchfixCodemod` for the
contract), add its class here, and give it a `golden/<name>/` folder.
"""

from codemods.assert_to_raise import AssertToRaise
from codemods.strict_load_state_dict import StrictLoadStateDict
from torchfix.codemod import TorchfixCodemod

CODEMODS: tuple[type[TorchfixCodemod], ...] = (
    AssertToRaise,
    StrictLoadStateDict,
)

__all__ = ["CODEMODS"]
