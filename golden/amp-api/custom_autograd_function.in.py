import torch
from torch.cuda.amp import custom_bwd, custom_fwd


class FusedLinearGelu(torch.autograd.Function):
    """Runs in float32 even inside an autocast region."""

    @staticmethod
    @custom_fwd(cast_inputs=torch.float32)
    def forward(ctx, x, weight, bias):
        ctx.save_for_backward(x, weight, bias)
        return torch.nn.functional.gelu(x @ weight.t() + bias)

    @staticmethod
    @custom_bwd
    def backward(ctx, grad_out):
        x, weight, bias = ctx.saved_tensors
        with torch.enable_grad():
            x, weight, bias = (t.detach().requires_grad_() for t in (x, weight, bias))
            out = torch.nn.functional.gelu(x @ weight.t() + bias)
        return torch.autograd.grad(out, (x, weight, bias), grad_out)


class ScaleGrad(torch.autograd.Function):
    @staticmethod
    @torch.cuda.amp.custom_fwd
    def forward(ctx, x, scale):
        ctx.scale = scale
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.scale, None

    # Functional form: the decorator applied by hand.
    jvp = torch.cuda.amp.custom_bwd(lambda ctx, grad: grad * ctx.scale)
