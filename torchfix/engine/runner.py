"""Runs the engine over many files: in a process pool, in a stable order, with the cache.

Each file is processed on a thread with a large stack: libcst's parser recurses natively
and would crash the process on deeply nested code long before Python's recursion limit
turns that into a clean error.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from torchfix.engine.discovery import SourceFile
from torchfix.engine.process import process_bytes, read_source
from torchfix.engine.results import EngineSettings, FileError, FileResult

if TYPE_CHECKING:
    from torchfix.engine.cache import ResultCache
    from torchfix.model.project import Project

PARSER_STACK_BYTES = 256 * 1024 * 1024
# Below this many files a process pool costs more to start than it saves.
MIN_FILES_FOR_POOL = 8

T = TypeVar("T")

_deep_stack: DeepStackThread | None = None
_worker_settings: EngineSettings | None = None
_worker_cache: ResultCache | None = None
_worker_project: Project | None = None


def default_jobs() -> int:
    return os.cpu_count() or 1


def run_files(
    files: Sequence[SourceFile],
    settings: EngineSettings,
    jobs: int | None = None,
    cache: ResultCache | None = None,
    project: Project | None = None,
) -> Iterator[FileResult]:
    """Yield one result per file, in the order of `files`."""
    jobs = jobs or default_jobs()
    if project is not None:
        # Where the run's packages live is where the modules its cached results read are
        # found again: every file's source root first, since a result may have read a
        # module of a package listed later (a test's reach into another project of the
        # run); without them a `module:` fact reads as absent and the result misses. And
        # every worker process then finds a module name in the same folders, in the same
        # order, whichever files it was given: salesforce-merlion (round 30) got other
        # findings on each `--no-cache` run, as workers had met different folders first.
        for source in files:
            project.begin_module(source.path)
    if jobs <= 1 or len(files) < MIN_FILES_FOR_POOL:
        for source in files:
            yield process_source_file(source, settings, cache, project)
        return
    # Results the cache holds are read here: a warm re-run of an unchanged repository
    # starts no pool, and a pool gets only the files that need work.
    recalled = ([_recall(source, settings, cache, project) for source in files]
                if cache else [])
    missing = [source for index, source in enumerate(files)
               if not recalled or recalled[index] is None]
    if len(missing) < MIN_FILES_FOR_POOL:
        for index, source in enumerate(files):
            known = recalled[index] if recalled else None
            yield known if known is not None else process_source_file(
                source, settings, cache, project)
        return
    computed = _run_in_pool(missing, settings, jobs, cache, project)
    for index in range(len(files)):
        known = recalled[index] if recalled else None
        yield known if known is not None else next(computed)


def _recall(source: SourceFile, settings: EngineSettings, cache: ResultCache,
            project: Project | None) -> FileResult | None:
    data = read_source(source.path, settings.max_file_bytes)
    if isinstance(data, FileError):
        return None  # the file's own run reports it
    return cache.get(cache.key(source.path, data), source.path, project)


def _run_in_pool(files: Sequence[SourceFile], settings: EngineSettings, jobs: int,
                 cache: ResultCache | None, project: Project | None) -> Iterator[FileResult]:
    # Imported here: a run of a few files (pre-commit, an editor) never starts a pool.
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    chunksize = max(1, min(32, len(files) // (jobs * 8)))
    with ProcessPoolExecutor(
        max_workers=min(jobs, len(files)), initializer=_init_worker,
        initargs=(settings, cache, project)
    ) as pool:
        done = 0
        try:
            for result in pool.map(_work_in_pool, files, chunksize=chunksize):
                done += 1
                yield result
        except BrokenProcessPool:
            for source in files[done:]:
                yield FileResult(
                    source.path,
                    error=FileError("a torchfix worker process died while this file was "
                                    "queued; rerun with --jobs 1 to find the file at fault",
                                    internal=True),
                )


def process_source_file(
    source: SourceFile, settings: EngineSettings, cache: ResultCache | None = None,
    project: Project | None = None,
) -> FileResult:
    """Process one file (or recall its cached result) on this process's large-stack thread."""
    data = read_source(source.path, settings.max_file_bytes)
    if isinstance(data, FileError):
        return FileResult(source.path, error=data)
    if cache is None:
        return _process_on_deep_stack(data, source, settings, project)
    key = cache.key(source.path, data)
    cached = cache.get(key, source.path, project)
    if cached is not None:
        return cached
    result = _process_on_deep_stack(data, source, settings, project)
    cache.put(key, result)
    return result


def _process_on_deep_stack(
    data: bytes, source: SourceFile, settings: EngineSettings, project: Project | None
) -> FileResult:
    # Only the parsing needs the large stack: a file that holds no codemod's trigger is
    # done here, without waking (or, in a one-file run, starting) the thread.
    return process_bytes(data, source.path, settings, explicit=source.explicit,
                         project=project, parse_on=_call_on_deep_stack)


def _call_on_deep_stack(work: Callable[[], T]) -> T:
    return _deep_stack_thread().call(work)


def on_parser_stack(function: Callable[..., T], *args: Any) -> T:
    """Call `function(*args)` on the large-stack thread, for engine work outside run_files."""
    return _deep_stack_thread().call(lambda: function(*args))


def _init_worker(settings: EngineSettings, cache: ResultCache | None,
                 project: Project | None) -> None:
    global _worker_settings, _worker_cache, _worker_project, _deep_stack
    _worker_settings = settings
    _worker_cache = cache
    _worker_project = project
    _deep_stack = None  # a forked child inherits the parent's executor but not its thread


def _work_in_pool(source: SourceFile) -> FileResult:
    if _worker_settings is None:
        raise RuntimeError("worker used before its initializer ran")
    return process_source_file(source, _worker_settings, _worker_cache, _worker_project)


class DeepStackThread:
    """One thread with a large stack that runs what it is given, one call at a time.

    (A ThreadPoolExecutor does the same, but importing concurrent.futures costs a
    one-file check more than the whole decision.)
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()  # one caller at a time
        self._given = threading.Semaphore(0)
        self._finished = threading.Semaphore(0)
        self._work: Callable[[], Any] | None = None
        self._outcome: tuple[bool, Any] = (True, None)
        previous = threading.stack_size()
        threading.stack_size(PARSER_STACK_BYTES)
        try:
            thread = threading.Thread(target=self._serve, name="torchfix-parse", daemon=True)
            thread.start()  # the thread gets its stack while the large size is set
        finally:
            threading.stack_size(previous)

    def _serve(self) -> None:
        while True:
            self._given.acquire()
            work, self._work = self._work, None
            try:
                self._outcome = (True, work() if work is not None else None)
            except BaseException as exc:  # handed back to the caller, raised there
                self._outcome = (False, exc)
            self._finished.release()

    def call(self, work: Callable[[], T]) -> T:
        with self._lock:
            self._work = work
            self._given.release()
            self._finished.acquire()
            succeeded, value = self._outcome
            self._outcome = (True, None)
        if not succeeded:
            raise value
        return value


def _deep_stack_thread() -> DeepStackThread:
    global _deep_stack
    if _deep_stack is None:
        _deep_stack = DeepStackThread()
    return _deep_stack
