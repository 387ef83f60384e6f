import torch


class Batched(torch.nn.Module):
    def __init__(self, module: torch.nn.Module) -> None:
        super().__init__()
        self.module = module
        if torch.__version__ >= "2.0":
            self._vmap = torch.vmap
        else:
            import functorch

            self._vmap = functorch.vmap
        if torch.__version__ < "2.0":
            from functorch import grad
        else:
            from torch.func import grad
        self._grad = grad

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        import functorch

        return functorch.vmap(self.module)(x)
