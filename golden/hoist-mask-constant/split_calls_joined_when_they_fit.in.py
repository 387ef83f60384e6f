"""A fill call laid out over lines only because the constant tensor made it long, or
the method called on its result, is joined onto one line once the tensor is gone, as
ruff format and black would; a call with a magic trailing comma or a comment inside, or
still too long, keeps its layout."""

import torch


class PredictCallback:
    def mask(self, out, nan_mask):
        if isinstance(out, list | tuple):
            out = [
                (
                    o.masked_fill(
                        nan_mask.unsqueeze(-1), torch.tensor(float("nan"))
                    )
                    if o.dtype == torch.float
                    else o
                )
                for o in out
            ]
        elif out.dtype == torch.float:
            out = out.masked_fill(
                nan_mask.unsqueeze(-1), torch.tensor(float("nan"))
            )
        return out

    def keep_trailing_comma(self, out, nan_mask):
        return out.masked_fill(
            nan_mask.unsqueeze(-1),
            torch.tensor(float("nan")),
        )

    def keep_comment(self, out, nan_mask):
        return out.masked_fill(
            nan_mask.unsqueeze(-1),  # padded steps
            torch.tensor(float("nan")),
        )

    def still_too_long(self, attention_scores_for_every_head, padding_mask_of_batch):
        return attention_scores_for_every_head.masked_fill(
            padding_mask_of_batch.unsqueeze(1).unsqueeze(2), torch.tensor(float("-inf"))
        )

    def threshold(self, probs, keep):
        # the method called on the fill call's result was split (executorch, round 53)
        thresh = torch.where(keep, probs, probs.new_tensor(float("inf"))).amin(
            dim=-1, keepdim=True
        )
        return thresh
