from torchvision import transforms
from torchvision.transforms import ToTensor


def build():
    return transforms.Compose([transforms.Resize(256), transforms.ToTensor(), ToTensor()])
