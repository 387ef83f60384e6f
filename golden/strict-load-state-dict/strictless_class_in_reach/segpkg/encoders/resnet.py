from torch import nn


class ResNetEncoder(nn.Module):
    pass


resnet_encoders = {"resnet18": {"encoder": ResNetEncoder}}
