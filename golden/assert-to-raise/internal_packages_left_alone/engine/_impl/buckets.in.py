def bucket_sizes(sizes, world_size):
    assert world_size > 0, "world_size must be positive"
    return [size // world_size for size in sizes]
