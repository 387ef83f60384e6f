import torchvision


def create_model(num_classes):
    # pytorch-fasterrcnn (round 38): Python >= 3.6 in PKG-INFO's headers, below an
    # old-style Description, and no torch named: torch 1.10 at most on Python 3.6
    model = torchvision.models.detection.fasterrcnn_resnet50_fpn(pretrained=True)
    return model, num_classes
