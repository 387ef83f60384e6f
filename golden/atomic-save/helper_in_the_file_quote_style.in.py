"""No formatter configuration: the helper's strings take the quote the file's own
strings mostly use."""

import torch

CHECKPOINT = 'last.pt'


def save(model, folder):
    torch.save({'model': model.state_dict(), 'kind': 'full'}, f'{folder}/{CHECKPOINT}')
