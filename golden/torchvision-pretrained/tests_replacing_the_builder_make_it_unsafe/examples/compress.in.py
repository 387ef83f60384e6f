"""An example: no code the tests run, so the double does not matter here."""

import torchvision.models as models

model = models.vgg16(pretrained=True)
