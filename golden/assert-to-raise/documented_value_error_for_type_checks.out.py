import torch


class DefaultKernel(torch.nn.Module):
    def __init__(self, input_dim, output_dim):
        """
        Initialization of the kernel.

        :param int input_dim: The input dimension.
        :param int output_dim: The output dimension.
        :raises ValueError: If ``input_dim`` is not an integer.
        :raises ValueError: If ``output_dim`` is not an integer.
        """
        super().__init__()
        if not isinstance(input_dim, int):
            raise ValueError("expected isinstance(input_dim, int)")
        if not isinstance(output_dim, int):
            raise ValueError("expected isinstance(output_dim, int)")
        self.model = torch.nn.Linear(input_dim, output_dim)


def scale(values, factor):
    if not isinstance(factor, float):  # documents nothing
        raise TypeError("factor must be a float")
    return values * factor
