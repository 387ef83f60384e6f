import torch.utils.checkpoint as cp


def forward_chunks(blocks, hidden, mask, positions):
    hidden = cp.checkpoint(
        blocks[0], hidden, mask, positions, blocks[0].scale, use_reentrant=True
    )
    return cp.checkpoint(blocks[1], hidden, mask, use_reentrant=True)
