from torchvision.models import vgg19


def feature_extractor():
    # VGG19_Weights only exists from torchvision 0.13; the project supports 0.10.
    return vgg19(pretrained=True).features[:36].eval()
