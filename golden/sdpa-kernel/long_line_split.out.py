from torch.nn.attention import SDPBackend, sdpa_kernel


def run(model, x):
    if x is not None:
        with sdpa_kernel(
            [
                SDPBackend.EFFICIENT_ATTENTION,
                SDPBackend.MATH,
                SDPBackend.CUDNN_ATTENTION,
            ]
        ) as k:
            model(x, k)
        with sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]):
            model(x)
