import logging

log = logging.getLogger("trainer")


def maybe_compile(model):
    try:
        import torch._dynamo  # noqa: F401
        return True
    except BaseException:
        pass
    return False
