"""Where `torchfix batch` runs each repository's work.

An executor runs `batch.process_target` once per target and yields the results as they
finish; the driver (`batch.run_batch`) then pushes, describes and reports each one, so
executors share every line of code after the per-repository work.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import replace
from types import TracebackType

from torchfix.batch import DEFAULT_JOBS, BatchOptions, Prepared, Target, process_target
from torchfix.runner import on_parser_stack
from torchfix.verify_command import stop_all


class BatchExecutor:
    """Runs the per-repository work; used as a context manager around `run`."""

    def __enter__(self) -> BatchExecutor:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        return None

    def run(self, targets: Sequence[Target],
            options: BatchOptions) -> Iterator[tuple[int, Prepared]]:
        """Yield (index in `targets`, `process_target`'s result) as each one finishes."""
        raise NotImplementedError


class LocalExecutor(BatchExecutor):
    """`jobs` threads in this process (the engine runs in each repository's thread)."""

    def __init__(self, jobs: int = DEFAULT_JOBS) -> None:
        self.jobs = jobs

    def run(self, targets: Sequence[Target],
            options: BatchOptions) -> Iterator[tuple[int, Prepared]]:
        jobs = max(1, min(self.jobs, len(targets)))
        # With one repository at a time the engine may use every core; with several, each
        # repository's engine stays in its thread (no process pools forked from threads).
        run_options = options.run if jobs == 1 else replace(options.run, jobs=1)
        on_parser_stack(int)  # create the engine's parser thread before our threads race to
        if jobs == 1:
            for index, target in enumerate(targets):
                yield index, process_target(target, options, run_options)
            return
        pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="torchfix-batch")
        futures = {pool.submit(process_target, target, options, run_options): index
                   for index, target in enumerate(targets)}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        except BaseException:  # interrupted, or the driver stopped reading
            # Threads cannot be interrupted: start nothing new, and end the check commands
            # the running ones wait for (they then commit nothing).
            for future in futures:
                future.cancel()
            stop_all()
            raise
        finally:
            pool.shutdown(wait=True)
