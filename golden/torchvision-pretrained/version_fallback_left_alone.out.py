import torchvision

try:
    from torchvision.models import ResNet34_Weights
except ImportError:  # torchvision < 0.13
    ResNet34_Weights = None


def load_vgg16(verbose: bool = False):
    try:
        out = torchvision.models.vgg16(
            weights=torchvision.models.VGG16_Weights.IMAGENET1K_V1,
            progress=verbose,
        )
    except Exception:  # torchvision < 0.13 has no weights enums
        out = torchvision.models.vgg16(
            pretrained=True,
            progress=verbose,
        )
    return out


def load_resnet():
    try:
        return torchvision.models.resnet18(weights=torchvision.models.ResNet18_Weights.IMAGENET1K_V1)
    except RuntimeError:  # no fallback for another torchvision: still rewritten
        return None


def load_resnet34():
    # pyiqa's form (round 22): the `else` arm serves a torchvision without the weights API
    if ResNet34_Weights is not None:
        return torchvision.models.resnet34(weights=ResNet34_Weights.IMAGENET1K_V1)
    else:
        return torchvision.models.resnet34(pretrained=True)


def load_resnet50(new_api: bool):
    if new_api:  # no other arm passing weights=: still rewritten
        return torchvision.models.resnet50(weights=torchvision.models.ResNet50_Weights.IMAGENET1K_V1)
    return None


def load_inception():
    # torchelper's FID Inception (round 50): the `except TypeError` arm serves a
    # torchvision whose inception_v3 takes no init_weights, older than the weights API
    try:
        return torchvision.models.inception_v3(weights=torchvision.models.Inception_V3_Weights.IMAGENET1K_V1, init_weights=False)
    except TypeError:  # torchvision < 0.6
        return torchvision.models.inception_v3(pretrained=True)
