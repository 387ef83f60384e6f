import torch


def save_checkpoint(state, path):
    torch.save(state, path)


def write_benchmark_file(state, path):
    # Measures raw torch.save throughput: must stay a plain in-place write.
    torch.save(state, path)  # torchfix: ignore[atomic-save]


def run_save_checkpoint(state, path):
    save_checkpoint(state, path)


def run_write_benchmark_file(state, path):
    write_benchmark_file(state, path)
