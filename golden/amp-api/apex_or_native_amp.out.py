try:
    from apex import amp as apex_amp

    HAS_APEX = True
except ImportError:
    from torch.cuda.amp import amp_definitely_not_available
    from torch.amp import GradScaler

    HAS_APEX = False


def setup(model, optimizer, opt_level="O1"):
    if HAS_APEX:
        model, optimizer = apex_amp.initialize(model, optimizer, opt_level=opt_level)
        return model, optimizer, None
    enabled = not amp_definitely_not_available()
    return model, optimizer, GradScaler("cuda", enabled=enabled)
