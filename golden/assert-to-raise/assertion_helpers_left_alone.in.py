# golden-args: --unsafe-fixes
"""A function named for asserting promises AssertionError to its callers (aimet's
`log_with_error_and_assert_if_false`, round 47): its asserts are left alone."""
import logging

logger = logging.getLogger(__name__)


def log_with_error_and_assert_if_false(condition: bool, error_msg: str) -> None:
    if not condition:
        logger.error(error_msg)
    assert condition, error_msg


def assert_same_shape(a, b):
    assert a.shape == b.shape, f"shapes differ: {a.shape} and {b.shape}"
