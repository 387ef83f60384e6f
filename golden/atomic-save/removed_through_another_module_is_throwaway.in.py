# golden-args: --unsafe-fixes
import os.path as osp

import torch
import torch.distributed as dist


def gather_features(features, prefix, rank, world_size):
    part_path = osp.join(prefix, f"_part_{rank}.pkl")
    torch.save(features, part_path)
    dist.barrier()
    if rank > 0:
        return
    merged = {}
    for rank_id in range(world_size):
        part_path = osp.join(prefix, f"_part_{rank_id}.pkl")
        merged.update(torch.load(part_path))
        osp.os.remove(part_path)
    for _ in range(2):
        torch.save(merged, osp.join(prefix, "merged_state.pkl"))
