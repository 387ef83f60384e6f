class DataProcessor:
    def __init__(self, transform_dict, input_mappings, return_mappings=None):
        if transform_dict.keys() != input_mappings.keys():
            raise ValueError(
                f"Error: expected keys in transform_dict and input_mappings to match,\
             received {transform_dict.keys()=}\n{input_mappings.keys()=}"
            )
        if return_mappings:
            if transform_dict.keys() != return_mappings.keys():
                raise ValueError(f"Error: expected keys to match,\
 received {transform_dict.keys()=}")
        self.input_mappings = input_mappings


def split_tensor_along_dim(tensor, dim, num_chunks):
    if tensor.shape[dim] % num_chunks != 0:
        raise ValueError(
            f"Error, cannot split dim {dim} evenly. Dim size is \
                                                  {tensor.shape[dim]} and requested numnber of splits is {num_chunks}"
        )
    return tensor.split(num_chunks, dim)
