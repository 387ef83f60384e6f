from torch.nn.attention import SDPBackend, sdpa_kernel


def attend(q, k, v, attention):
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        return attention.sdp_kernel(q, k, v)
