from torchvision.transforms import v2


def transforms():
    return v2.Compose([v2.RandomResizedCrop(224), v2.ToTensor()])
