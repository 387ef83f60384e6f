import torchvision
from torchvision import models
from torchvision.models import resnet50
from torchvision.models.detection import fasterrcnn_resnet50_fpn


def build():
    backbone = models.resnet18(weights=models.ResNet18_Weights.IMAGENET1K_V1)
    encoder = resnet50(weights=models.ResNet50_Weights.IMAGENET1K_V1, progress=False)
    scratch = torchvision.models.vgg16_bn(weights=None)
    detector = fasterrcnn_resnet50_fpn(weights=None, weights_backbone=models.ResNet50_Weights.IMAGENET1K_V1)
    segmenter = torchvision.models.segmentation.deeplabv3_resnet50(weights=torchvision.models.segmentation.DeepLabV3_ResNet50_Weights.COCO_WITH_VOC_LABELS_V1)
    return backbone, encoder, scratch, detector, segmenter
