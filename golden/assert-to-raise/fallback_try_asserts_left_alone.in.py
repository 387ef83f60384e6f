import logging

logger = logging.getLogger(__name__)


def strip_boxed(value: str):
    # the asserts are how this falls back to None: control flow, not input checks
    left = "\\boxed{"
    try:
        assert value[: len(left)] == left
        assert value[-1] == "}"
        return value[len(left) : -1]
    except Exception:
        return None


def parse_or_default(text: str, default: int):
    try:
        assert text.isdigit(), "not a number"
        return int(text)
    except:  # noqa: E722
        return default


def load_config(path: str, retries: int):
    # a handler that logs and raises again: the assert is still a check of input
    try:
        assert retries >= 0, "retries must be non-negative"
        return open(path).read()
    except Exception:
        logger.exception("could not load %s", path)
        raise
