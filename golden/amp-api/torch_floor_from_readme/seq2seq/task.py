import torch


def train_step(model, sample, optimizer, use_amp: bool):
    # The README promises torch 1.5: torch.amp.autocast (torch 2.0 for this form) would
    # raise AttributeError there, so the deprecated spelling is reported, not rewritten.
    with torch.cuda.amp.autocast(enabled=use_amp):
        loss = model(**sample)
    optimizer.backward(loss)
    return loss
