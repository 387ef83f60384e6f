import time

import torch


def measure_write(state, path, stats):
    start = time.perf_counter()
    torch.save(state, path)
    stats["write_s"] += time.perf_counter() - start


def save_and_log(state, ckpt_path, logger):
    torch.save(state, ckpt_path)
    logger.info("saved %s at %.0f", ckpt_path, time.time())


def run_measure_write(state, path, stats):
    measure_write(state, path, stats)


def run_save_and_log(state, ckpt_path, logger):
    save_and_log(state, ckpt_path, logger)
