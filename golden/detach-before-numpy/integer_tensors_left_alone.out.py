# golden-args: --unsafe-fixes
import torch
from torch import nn


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 5)

    def decode(self, x, bardist):
        scores = self.proj(x)
        best = torch.max(scores, 1)[1].cpu().numpy()
        top = torch.topk(scores, 2).indices.cpu().numpy()
        where = torch.where(scores > 0)[0].cpu().numpy()
        found = torch.argwhere(scores).cpu().numpy()
        kept = torch.isin(scores, scores[0]).cpu().numpy()
        codes = scores.type(torch.LongTensor).cpu().numpy()
        blank = scores.new_zeros(3).cpu().numpy()
        buckets = bardist.map_to_bucket_idx(scores).clamp(0, 4).cpu().numpy()
        values = torch.max(scores, 1)[0].detach().cpu().numpy()
        chosen = torch.where(scores > 0, scores, 0.0).detach().cpu().numpy()
        return best, top, where, found, kept, codes, blank, buckets, values, chosen
