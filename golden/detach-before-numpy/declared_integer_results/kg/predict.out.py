import torch

from .utils import isin_many_dim, scores


def top_entities(candidates: torch.Tensor, limit: int) -> torch.LongTensor:
    return candidates.sort(descending=True).indices[:limit]


def filter_known(model, triples, known, batch):
    mask = isin_many_dim(triples, known).cpu().numpy()
    ranked = top_entities(triples.float(), 10).cpu().numpy()
    values = scores(model, batch).detach().cpu().numpy()
    return mask, ranked, values
