# The entries a load reads decide nothing alone: weights_only=True unpickles the whole
# file. Where the project's own torch.save writes the entry beside plain ones, the fix is
# safe; a published checkpoint's other entries are unknown (StyleTTS2's F0 model holds
# pickled objects beside "net", round 23), so there the fix is unsafe.
import torch


def load_f0_model(model, path):
    params = torch.load(path, map_location="cpu")["net"]
    model.load_state_dict(params)
    return model


def save_decoder(decoder, optimizer, epoch, path):
    torch.save({"decoder": decoder.state_dict(), "optimizer": optimizer.state_dict(),
                "epoch": epoch}, path)


def load_decoder(decoder, optimizer, path):
    checkpoint = torch.load(path, map_location="cpu")
    decoder.load_state_dict(checkpoint["decoder"])
    optimizer.load_state_dict(checkpoint["optimizer"])
