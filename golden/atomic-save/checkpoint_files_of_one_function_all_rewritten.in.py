# golden-args: --unsafe-fixes
import torch
import yaml


class KAN:
    def saveckpt(self, path="model"):
        # one checkpoint of three files, read back together by loadckpt: the cache file
        # is part of it, so it is rewritten with the state
        with open(f"{path}_config.yml", "w") as outfile:
            yaml.dump({"width": self.width}, outfile)
        torch.save(self.state_dict(), f"{path}_state")
        torch.save(self.cache_data, f"{path}_cache_data")

    def save_with_cache(self, ckpt_path, cache_dir):
        # the cache goes elsewhere, named from another variable: a re-creatable output
        torch.save(self.state_dict(), ckpt_path)
        torch.save(self.cache_data, f"{cache_dir}/features_cache.pt")

    @staticmethod
    def loadckpt(path="model"):
        model = KAN()
        model.load_state_dict(torch.load(f"{path}_state"))
        model.cache_data = torch.load(f"{path}_cache_data")
        return model
