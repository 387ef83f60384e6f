def unpack_non_tensors(tensors, packed_non_tensors):
    assert isinstance(packed_non_tensors, dict), "packed_non_tensors must be a dict"
    return tuple(tensors), packed_non_tensors
