import logging

try:
    from apex import amp
except Exception:
    pass

logger = logging.getLogger(__name__)
