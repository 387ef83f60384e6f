# golden-args: --unsafe-fixes
import logging

logger = logging.getLogger(__name__)


def merge_chunks(segments_list: list, chunk_size: int):
    if len(segments_list) == 0:
        logger.warning("No active speech found in audio")
        return []
    assert segments_list, "segments_list is empty."  # the if above returned already
    return [segments_list[i:i + chunk_size] for i in range(0, len(segments_list), chunk_size)]


def first_batch(batches: list, size: int):
    if size is None:
        raise ValueError("size is required")
    assert size is not None
    if not batches:
        logger.warning("nothing to batch")
    if len(batches) == 0:  # the if above does not leave: still a check
        raise ValueError("no batches")
    return batches[0][:size]
