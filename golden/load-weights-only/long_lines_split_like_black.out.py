import torch


def test_load(model, tmp_path):
    model.load_state_dict(
        torch.load(tmp_path / "wd_model.pt", map_location="cpu", weights_only=True)
    )


def test_short(model, path):
    model.load_state_dict(torch.load(path, weights_only=True))


class SCUNet(torch.nn.Module):
    def load_pretrained(self, pretrained: str) -> None:
        if pretrained:
            if pretrained.startswith("http"):
                ckpt = None
            else:
                ckpt = torch.load(
                    pretrained,
                    map_location=lambda storage, loc: storage,
                    weights_only=True,
                )
            self.load_state_dict(ckpt, strict=True)
