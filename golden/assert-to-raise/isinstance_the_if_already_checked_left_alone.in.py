# golden-args: --unsafe-fixes
# flowtorch (round 31): `_check_bijective_x` returns `isinstance(x, BijectiveTensor) and
# ...`, and the assert opening the body of `if self._check_bijective_x(x, context):`
# only tells the type checker what it found: it cannot fail. Left alone.
import torch


class BijectiveTensor(torch.Tensor):
    pass


class Bijector:
    def _check_bijective_x(self, x, context):
        return isinstance(x, BijectiveTensor) and x.from_inverse() and x.check_context(context)

    def forward(self, x, context=None):
        if self._check_bijective_x(x, context):
            assert isinstance(x, BijectiveTensor)
            return x.get_parent_from_bijector(self)
        return self._forward(x)

    def _forward(self, x):
        return x
