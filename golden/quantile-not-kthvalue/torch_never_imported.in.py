# golden-args: --unsafe-fixes
# `torch` is read but never imported here: adding `import torch` for one fix would give
# the other reads a meaning they do not have (and let other fixes match on a second run).
t = model.view(-1).kthvalue(int(0.9 * model.numel())).values
with torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False):
    y = model(q)
