def reduce_parts(parts: list, world_size: int) -> list:
    assert len(parts) == world_size, "one part per peer"
    return [sum(part) / world_size for part in parts]


def split(values: list, chunks: int) -> list:
    if chunks <= 0:
        raise ValueError("chunks must be positive")
    size = -(-len(values) // chunks)
    return [values[i:i + size] for i in range(0, len(values), size)]
