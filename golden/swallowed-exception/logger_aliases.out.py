# golden-args: --unsafe-fixes
import logging as lg

from transformers.utils import logging

_LOGGER = lg.getLogger(__name__)
logger = logging.get_logger(__name__)


def load_card(path):
    try:
        with open(path) as f:
            return f.read()
    except Exception:
        logger.debug("Ignored an exception in load_card", exc_info=True)


def close(run, logger=None):
    # The parameter shadows the module's `logger`: `_LOGGER` is used instead.
    try:
        run.finish()
    except Exception:
        _LOGGER.debug("Ignored an exception in close", exc_info=True)
