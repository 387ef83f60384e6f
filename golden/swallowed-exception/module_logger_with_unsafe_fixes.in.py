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
            pass  # graceful degradation if collection fails

    def flush(self, writer):
        try:
            writer.flush()
        except Exception as exc:
            pass


def enable_tf32():
    try:
        torch.backends.cuda.matmul.allow_tf32 = True
    except (AttributeError, Exception):
        ...


def cleanup(tmp_dir):
    try:
        tmp_dir.cleanup()
    except:
        pass
