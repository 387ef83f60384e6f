import torch


def eval_conditional_density(density, condition):
    return torch.exp(density.log_prob(condition))


def conditional_plot(density, condition):
    def diag_func(row):
        return eval_conditional_density(density, condition[row]).to("cpu").numpy()

    return diag_func
