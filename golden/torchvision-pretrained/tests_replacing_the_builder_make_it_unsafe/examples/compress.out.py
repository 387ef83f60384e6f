"""An example: no code the tests run, so the double does not matter here."""

import torchvision.models as models

model = models.vgg16(weights=models.VGG16_Weights.IMAGENET1K_V1)
