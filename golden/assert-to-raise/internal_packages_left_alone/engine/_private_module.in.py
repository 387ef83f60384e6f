def shard(tensor, world_size):
    assert world_size > 0, "world_size must be positive"
    return tensor.chunk(world_size)
