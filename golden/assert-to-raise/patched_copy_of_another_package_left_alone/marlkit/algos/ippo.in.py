# The project's own code beside the copy: its input check is fixed as usual.
from ray.rllib.policy.policy import Policy


class IPPOPolicy(Policy):
    def set_clip(self, clip_param: float) -> None:
        assert clip_param > 0, "clip_param must be positive"
        self.clip_param = clip_param
