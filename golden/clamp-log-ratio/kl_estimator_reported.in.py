import torch


def grpo_kl_penalty(per_token_logps, ref_per_token_logps, beta):
    # k3 estimator: clamping only the exp would leave the linear term unclamped
    per_token_kl = (
        torch.exp(ref_per_token_logps - per_token_logps) - (ref_per_token_logps - per_token_logps) - 1
    )
    return beta * per_token_kl.mean()


def approx_kl_for_logging(log_prob, old_log_prob):
    # a diagnostic without gradients: an inf here only stops the epoch early
    with torch.no_grad():
        log_ratio = log_prob - old_log_prob
        return torch.mean((torch.exp(log_ratio) - 1) - log_ratio).item()
