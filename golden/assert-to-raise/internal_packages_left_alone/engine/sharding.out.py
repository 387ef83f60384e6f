def shard(tensor, world_size):
    if not (world_size > 0):
        raise ValueError("world_size must be positive")
    return tensor.chunk(world_size)
