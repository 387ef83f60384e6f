# A copy of ray's rllib/policy/torch_policy.py that marllib patches over the installed one
# (round 24): its folders repeat the module path it imports from (`ray.rllib.policy`), so
# it keeps ray's form, to be kept in step with each ray release. Its asserts stay.
from ray.rllib.policy.policy import Policy


class TorchPolicy(Policy):
    def set_learning_rate(self, lr: float) -> None:
        assert lr > 0, "lr must be positive"
        self.lr = lr
