from vggmpo.models import vgg16_compressed


class Standard:
    pass


def test_pretrained_wrapper_without_a_download(monkeypatch):
    import torchvision.models as tv_models

    monkeypatch.setattr(tv_models, "vgg16", lambda pretrained=True: Standard())
    assert isinstance(vgg16_compressed(pretrained=True), Standard)
