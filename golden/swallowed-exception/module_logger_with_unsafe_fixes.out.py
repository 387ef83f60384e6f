# golden-args: --unsafe-fixes
import logging

import torch

logger = logging.getLogger(__name__)


class GradientMonitor:
    def collect(self, agent, payload):
        try:
            stats = {n: p.grad.norm().item() for n, p in agent.policy.named_parameters()}
            payload.update(stats)
        except Exception:
            logger.debug("Ignored an exception in GradientMonitor.collect", exc_info=True)  # graceful degradation if collection fails

    def flush(self, writer):
        try:
            writer.flush()
        except Exception as exc:
            logger.debug("Ignored an exception in GradientMonitor.flush", exc_info=True)


def enable_tf32():
    try:
        torch.backends.cuda.matmul.allow_tf32 = True
    except (AttributeError, Exception):
        logger.debug("Ignored an exception in enable_tf32", exc_info=True)


def cleanup(tmp_dir):
    try:
        tmp_dir.cleanup()
    except:
        logger.debug("Ignored an exception in cleanup", exc_info=True)
