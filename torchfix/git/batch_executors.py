"""Where `torchfix batch` runs each repository's work: threads here, or tasks on Ray.

An executor runs `batch.process_target` once per target and yields the results as they
finish; the driver (`batch.run_batch`) then pushes, describes and reports each one, so
both executors share every line of code after the per-repository work. Ray is imported
only inside `RayExecutor`: `torchfix` itself never needs it.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import re
import socket
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import replace
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any, TextIO

from torchfix.engine.pipeline import RunOptions
from torchfix.engine.runner import on_parser_stack
from torchfix.git.batch import (
    DEFAULT_JOBS,
    BatchOptions,
    Prepared,
    Target,
    failed_outcome,
    process_target,
)
from torchfix.git.verify_command import stop_all

RAY_EXTRA = 'pip install "torchfix-codemods[ray]"'
# A worker that dies mid-repository (killed, out of memory, its node lost) is retried
# once; an exception inside the task is not retried, it is that repository's outcome.
RAY_MAX_RETRIES = 1
CONNECT_TIMEOUT_SECONDS = 10
# Test-only: a folder of fault plans for the test suite (tests/test_batch_ray.py). The
# file named after a repository lists one fault per attempt: `exit-before` or
# `exit-after` kill the worker before or after the repository's work, `raise` raises
# inside the task. Read from the workers' environment; users never set it.
TEST_FAULTS_ENV = "TORCHFIX_TEST_RAY_FAULTS"


class ExecutorError(Exception):
    """The executor cannot run at all (Ray missing or unreachable); one line for users."""


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


class RayExecutor(BatchExecutor):
    """One Ray task per repository, each asking for `num_cpus` CPUs.

    Joins the cluster at `address` (or `RAY_ADDRESS`), else starts a local one. Workers
    must see the same filesystem paths as the driver (targets, --workdir, --pr-dir): the
    task works in the driver's folder, and the driver pushes from the worker's clone.
    """

    def __init__(self, address: str | None = None, num_cpus: float = 1.0) -> None:
        self.address = address
        self.num_cpus = num_cpus
        self._ray: ModuleType | None = None
        self._connected_here = False
        self._quiet_stdout: contextlib.redirect_stdout[TextIO] | None = None

    def __enter__(self) -> RayExecutor:
        try:
            import ray
        except ImportError:
            raise ExecutorError(f"--executor ray needs Ray, an optional extra: {RAY_EXTRA}") \
                from None
        # Ray prints its notices (a worker died, a task is retried) to stdout; that is
        # where the table or the JSON goes, so send them to stderr while Ray runs.
        self._quiet_stdout = contextlib.redirect_stdout(sys.stderr)
        self._quiet_stdout.__enter__()
        self._ray = ray
        if not ray.is_initialized():
            where = self.address or os.environ.get("RAY_ADDRESS")
            # ray.init retries an address nobody answers at for many minutes: ask first.
            reason = _unreachable(where) if where else None
            if reason is not None:
                self.__exit__(None, None, None)
                raise ExecutorError(f"cannot reach a Ray cluster at {where}: {reason}")
            try:
                # No runtime_env: workers import the installed torchfix and read the
                # repositories where the driver sees them.
                ray.init(address=self.address, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.WARNING)
            except Exception as exc:
                self.__exit__(None, None, None)
                at = f" at {where}" if where else ""
                raise ExecutorError(f"cannot start or join a Ray cluster{at}: "
                                    f"{_first_line(exc)}") from None
            self._connected_here = True
        if self.address is None and not os.environ.get("RAY_ADDRESS"):
            # A local cluster never grows: a request larger than it would wait forever.
            cpus = ray.cluster_resources().get("CPU", 0)
            if self.num_cpus > cpus:
                self.__exit__(None, None, None)
                raise ExecutorError(f"--ray-num-cpus {self.num_cpus:g} is more than the "
                                    f"local Ray cluster has ({cpus:g} CPUs)")
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self._ray is not None and self._connected_here:
            self._ray.shutdown()  # stops the cluster if ray.init started it
        if self._quiet_stdout is not None:
            self._quiet_stdout.__exit__(None, None, None)
        self._ray, self._connected_here, self._quiet_stdout = None, False, None

    def run(self, targets: Sequence[Target],
            options: BatchOptions) -> Iterator[tuple[int, Prepared]]:
        ray = self._ray
        assert ray is not None, "use RayExecutor as a context manager"
        task = ray.remote(_ray_task).options(
            num_cpus=self.num_cpus, max_retries=RAY_MAX_RETRIES, retry_exceptions=False)
        # The engine may use the CPUs the task asked for.
        run_options = replace(options.run, jobs=max(1, int(self.num_cpus)))
        shared = ray.put((options, run_options))  # once, not once per task
        cwd = os.getcwd()
        upcoming = iter(enumerate(targets))
        pending: dict[Any, int] = {}

        def submit() -> None:
            # Keep a window of twice the tasks the cluster can run at once in flight: the
            # driver holds that many references, not one per repository, an interrupt has
            # little to cancel, and an autoscaler still sees demand beyond what runs (the
            # window grows with the cluster, so it is measured each time).
            slots = int(ray.cluster_resources().get("CPU", 0) // self.num_cpus)
            window = max(4, 2 * slots)
            for index, target in itertools.islice(upcoming, max(0, window - len(pending))):
                pending[task.remote(target, shared, cwd)] = index

        try:
            submit()
            while pending:
                (ref,), _ = ray.wait(list(pending), num_returns=1)
                index = pending.pop(ref)
                prepared = _result(ray, ref, targets[index])
                submit()
                yield index, prepared
        finally:
            for ref in pending:  # interrupted, or the driver stopped reading
                ray.cancel(ref)


def _result(ray: ModuleType, ref: Any, target: Target) -> Prepared:
    """The task's result; a task Ray could not finish becomes an `error` outcome."""
    try:
        prepared = ray.get(ref)
    except ray.exceptions.WorkerCrashedError as exc:
        reason = (f"the Ray worker died while migrating it, also on the retry: "
                  f"{_first_line(exc)}")
    except ray.exceptions.RayTaskError as exc:  # raised past the task's own catch
        cause = exc.cause if exc.cause is not None else exc
        reason = f"internal error in the Ray task: {type(cause).__name__}: {_first_line(cause)}"
    except ray.exceptions.RayError as exc:  # node lost, cancelled, out of memory, ...
        reason = f"Ray could not run it: {type(exc).__name__}: {_first_line(exc)}"
    else:
        assert isinstance(prepared, Prepared)
        return prepared
    return Prepared(failed_outcome(target, reason))


def _unreachable(address: str) -> str | None:
    """Why nothing accepts connections at a `host:port` (or `ray://host:port`) address;
    None when something does, or for addresses Ray resolves itself (`auto`, `local`)."""
    match = re.fullmatch(r"(?:ray://)?\[?([^\s\[\]/]+?)\]?:(\d+)/?", address.strip())
    if match is None:
        return None
    try:
        with socket.create_connection((match.group(1), int(match.group(2))),
                                      timeout=CONNECT_TIMEOUT_SECONDS):
            return None
    except OSError as exc:
        return exc.strerror or str(exc) or type(exc).__name__


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def _ray_task(target: Target, shared: tuple[BatchOptions, RunOptions], cwd: str) -> Prepared:
    """One repository on a Ray worker (one task at a time per worker process)."""
    options, run_options = shared
    fault = _test_fault(target.name)
    if fault == "exit-before":
        os._exit(1)
    try:
        # Relative targets, --workdir and --pr-dir mean what they mean on the driver.
        os.chdir(cwd)
    except OSError as exc:
        return Prepared(failed_outcome(
            target, f"the driver's folder {cwd} is not on this Ray worker's filesystem "
                    f"({exc.strerror}): workers must share the driver's filesystem"))
    try:
        if fault == "raise":
            raise RuntimeError("test fault: raised inside the Ray task")
        prepared = process_target(target, options, run_options)
    except Exception as exc:  # process_target catches its own; this is the last net
        prepared = Prepared(failed_outcome(target, f"internal error: {type(exc).__name__}: "
                                                   f"{exc}"))
    if fault == "exit-after":
        os._exit(1)  # the repository is committed, its outcome lost: the retry must cope
    return prepared


def _test_fault(name: str) -> str | None:
    """Test-only: the next fault planned for repository `name` (see TEST_FAULTS_ENV)."""
    folder = os.environ.get(TEST_FAULTS_ENV)
    if not folder:
        return None
    plan = Path(folder) / name
    try:
        faults = plan.read_text(encoding="utf-8").split()
    except OSError:
        return None
    if not faults:
        return None
    plan.write_text("\n".join(faults[1:]), encoding="utf-8")
    return faults[0]
