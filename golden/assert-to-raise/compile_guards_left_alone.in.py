# golden-args: --unsafe-fixes
import torch


def attention(query, key, causal: bool):
    if torch.compiler.is_compiling():
        assert query.dim() == 4, "compiled kernels take 4-d queries"
    if not torch.jit.is_scripting():
        pass
    else:
        assert key.dim() == 4
    if torch.jit.is_tracing() and causal:
        assert query.shape == key.shape
    if torch._dynamo.is_compiling() or causal:
        assert causal, "not a guard: also runs eagerly"
    return query @ key
