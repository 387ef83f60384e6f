# golden-args: --unsafe-fixes
import torch


class NaiveCollector:
    """A stand-in collector: it writes random timesteps for the coordinator's tests."""

    def process(self, task):
        for count in range(20):
            data_id = "./{}_{}".format(task, count)
            torch.save(self._get_timestep(), data_id)

    def _get_timestep(self):
        return [
            {
                "obs": torch.rand(4),
                "reward": torch.randint(0, 2, size=(3,)).float(),
                "done": False,
            }
        ]


def write_fixture(path, steps):
    for _ in range(steps):
        fake = {"x": torch.randn(2, 3), "y": torch.zeros(2)}
        torch.save(fake, path)
