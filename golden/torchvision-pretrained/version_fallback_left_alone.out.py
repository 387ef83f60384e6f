import torchvision


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
