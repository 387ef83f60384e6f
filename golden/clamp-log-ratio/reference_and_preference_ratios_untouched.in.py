import torch
import torch.nn.functional as F


def f_divergence_scores(chosen_logps, rejected_logps, ref_chosen_logps, ref_rejected_logps):
    # sequence-level log-ratios against a reference model: values past +-20 are ordinary
    # here, and clamping them would change the DPO loss
    chosen_logratios = chosen_logps - ref_chosen_logps
    rejected_logratios = rejected_logps - ref_rejected_logps
    chosen_scores = 1 - torch.exp(-chosen_logratios)
    rejected_scores = 1 - torch.exp(-rejected_logratios)
    return -F.logsigmoid(chosen_scores - rejected_scores).mean()


def distillation_weights(teacher_log_probs, student_log_probs):
    return torch.exp(teacher_log_probs - student_log_probs).detach()


def kl_to_reference(per_token_logps, ref_per_token_logps):
    ratio = torch.exp(ref_per_token_logps - per_token_logps)
    return ratio


def k3_from_clamped(log_ratio):
    # a lower bound on log_ratio bounds exp(-log_ratio)
    k3_log_ratio = log_ratio.clamp(min=-10)
    return (-k3_log_ratio).exp() - 1 + k3_log_ratio
