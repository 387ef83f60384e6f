from functools import partial

from torch.utils.checkpoint import checkpoint


def forward(block, hidden, context, **checkpoint_kwargs):
    first = checkpoint(block, hidden, use_reentrant=False)
    second = checkpoint(block, first, **checkpoint_kwargs)  # may carry use_reentrant
    # Keyword arguments for the block only work with use_reentrant=False: reported.
    third = checkpoint(block, second, attention_mask=context)
    trainer_checkpoint = partial(print, "saving")  # not torch's checkpoint
    trainer_checkpoint()
    return third
