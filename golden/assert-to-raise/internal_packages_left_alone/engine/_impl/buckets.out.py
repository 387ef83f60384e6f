def bucket_sizes(sizes, world_size):
    if not (world_size > 0):
        raise ValueError("world_size must be positive")
    return [size // world_size for size in sizes]
