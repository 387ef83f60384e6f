import torch


class Actor:
    def entropy(self, logits_rmpad, checkpointing):
        if checkpointing:
            entropy_rmpad = torch.utils.checkpoint.checkpoint(
                self.compute_entropy_from_logits, logits_rmpad, use_reentrant=True
            )
            entropy_full = torch.utils.checkpoint.checkpoint(
                self.compute_entropy_from_logits,
                logits_rmpad,
                self.mask_of_tokens,
                use_reentrant=True,
            )
            return entropy_rmpad, entropy_full
        return None


def exploded(block, hidden, mask):
    return torch.utils.checkpoint.checkpoint(
        block,
        hidden,
        mask,
        use_reentrant=True,
    )


def sole_argument(model_with_a_rather_long_name):
    return torch.utils.checkpoint.checkpoint(
        model_with_a_rather_long_name.decoder_stack_forward_pass, use_reentrant=True
    )
