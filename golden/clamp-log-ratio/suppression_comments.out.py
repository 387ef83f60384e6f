# golden-args: --unsafe-fixes
import torch


def ratios(new_log_probs, old_log_probs):
    a = torch.exp(new_log_probs - old_log_probs)  # torchfix: ignore
    b = torch.exp(new_log_probs - old_log_probs)  # torchfix: ignore[clamp-log-ratio]
    c = (new_log_probs - old_log_probs).clamp(-20.0, 20.0).exp()  # torchfix: ignore[strict-load-state-dict]
    return a, b, c
