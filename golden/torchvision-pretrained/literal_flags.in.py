import torchvision
from torchvision import models
from torchvision.models import resnet50
from torchvision.models.detection import fasterrcnn_resnet50_fpn


def build():
    backbone = models.resnet18(pretrained=True)
    encoder = resnet50(pretrained=True, progress=False)
    scratch = torchvision.models.vgg16_bn(pretrained=False)
    detector = fasterrcnn_resnet50_fpn(pretrained=False, pretrained_backbone=True)
    segmenter = torchvision.models.segmentation.deeplabv3_resnet50(pretrained=True)
    return backbone, encoder, scratch, detector, segmenter
