"""torch is optional: imported only where a serializer needs it."""

import json


class JsonSerializer:
    def save(self, obj, path):
        with open(path, "w") as f:
            json.dump(obj, f)


class TorchSerializer:
    def save(self, obj, path):
        import torch

        for _ in range(2):
            torch.save(obj, path)
