# tez's Tez.save writes its config object beside the state dicts through its driver (an
# accelerate-like saver that torch.saves what it is given): weights_only=True refuses
# the file, so loading it back is unsafe.
import torch


class Trainer:
    def save(self, path):
        model_dict = {}
        model_dict["model_state"] = self.model.state_dict()
        model_dict["config"] = self.config
        self._driver.save(model_dict, path)

    def load(self, path):
        model_dict = torch.load(path, map_location="cpu")
        self.model.load_state_dict(model_dict["model_state"])
