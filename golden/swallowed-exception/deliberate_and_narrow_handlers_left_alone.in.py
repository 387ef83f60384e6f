import logging
import os

logger = logging.getLogger(__name__)


class Run:
    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def close(self):
        try:
            os.remove(self.lock)
        except FileNotFoundError:
            pass
        try:
            self.writer.close()
        except Exception:  # noqa: BLE001
            pass
        try:
            self.pbar.close()
        except Exception:  # pylint: disable=broad-except
            pass
        try:
            self.proc.kill()
        except Exception as exc:
            logger.warning("could not kill %s: %s", self.proc, exc)


try:
    import wandb
except ImportError:
    wandb = None


def to_float(value, default=float("nan")):
    try:
        return float(value)
    except Exception:
        pass
    return default


try:
    import apex  # an optional dependency
except Exception:
    pass
