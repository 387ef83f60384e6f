from torch.amp import autocast


def evaluate(model, batch, autocast=False):
    # `autocast` here is a flag, not the context manager.
    out = model(batch)
    return out.half() if autocast else out


def train_step(model, batch):
    with autocast("cuda"):
        return model(batch)
