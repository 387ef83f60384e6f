# golden-args: --unsafe-fixes
import logging

logger = logging.getLogger(__name__)


def select_tasks(task_ids: list, nb_tasks: int) -> list:
    assert len(task_ids) > 0, print("No task ids were given.")
    assert nb_tasks > 0, logger.error("nb_tasks must be positive")
    if not (max(task_ids) < nb_tasks):
        raise ValueError(f"task id {max(task_ids)} >= {nb_tasks}")
    return [task for task in task_ids if task < nb_tasks]


def _raise(error: Exception) -> None:
    raise error


def generate(num_images: int) -> list:
    # torchmanager's idiom (round 41): the message raises the exception it is handed
    assert num_images > 0, _raise(ValueError(f"num_images must be positive, got {num_images}"))
    return [None] * num_images
