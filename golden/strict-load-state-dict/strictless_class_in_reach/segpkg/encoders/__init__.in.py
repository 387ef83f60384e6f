from .mix import mix_encoders
from .resnet import resnet_encoders

encoders = {**resnet_encoders, **mix_encoders}


def get_encoder(name, weights):
    # Which class `Encoder` is depends on `name`: one of them takes no `strict`.
    Encoder = encoders[name]["encoder"]
    encoder = Encoder()
    encoder.load_state_dict(weights)
    return encoder
