"""`--verify CMD`: the user's own check (tests, an import, a linter) run around a rewrite.

The command runs in the repository root without a shell (split like a POSIX shell would)
unless `--verify-shell` asks for one, with a timeout. It runs in a session of its own so
that on timeout the whole process group (test workers included) is killed, and its output
goes to a temporary file rather than a pipe, so a grandchild that outlives it cannot keep
us waiting.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from torchfix.git.defaults import DEFAULT_VERIFY_TIMEOUT_SECONDS

DEFAULT_TIMEOUT_SECONDS = DEFAULT_VERIFY_TIMEOUT_SECONDS
TAIL_LINES = 20
TAIL_CHARS = 4000


class VerifyCommandError(Exception):
    """The command cannot be run at all (not found, not executable, bad quoting)."""


class VerifyInterrupted(Exception):
    """The run was stopped (Ctrl-C in a batch): its result means nothing."""


# Commands running now, so that an interrupted batch can stop them: they run in sessions
# of their own, where the terminal's Ctrl-C does not reach them.
_running: set[subprocess.Popen[bytes]] = set()
_running_lock = threading.Lock()
_stopping = threading.Event()


def stop_all() -> None:
    """Kill every verify command running now, and refuse to start new ones."""
    _stopping.set()
    with _running_lock:
        for process in list(_running):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)


@dataclass(frozen=True)
class VerifySpec:
    """The `--verify` command and how to run it."""

    command: str
    shell: bool = False
    timeout: float = DEFAULT_TIMEOUT_SECONDS

    def argv(self) -> list[str] | str:
        if self.shell:
            return self.command
        try:
            argv = shlex.split(self.command)
        except ValueError as exc:
            raise VerifyCommandError(f"cannot split --verify command: {exc}") from exc
        if not argv:
            raise VerifyCommandError("--verify command is empty")
        return argv


@dataclass(frozen=True)
class VerifyRun:
    """How one run of the `--verify` command ended."""

    returncode: int | None  # None when it timed out
    seconds: float
    tail: str  # the last lines of its combined stdout and stderr

    @property
    def passed(self) -> bool:
        return self.returncode == 0

    @property
    def timed_out(self) -> bool:
        return self.returncode is None

    def describe(self, timeout: float) -> str:
        if self.timed_out:
            return f"timed out after {timeout:g}s"
        return "passed" if self.passed else f"failed (exit {self.returncode})"


def run_verify(spec: VerifySpec, cwd: Path) -> VerifyRun:
    argv = spec.argv()
    if _stopping.is_set():
        raise VerifyInterrupted("interrupted")
    started = time.monotonic()
    with tempfile.TemporaryFile() as output:
        try:
            process = subprocess.Popen(
                argv,
                cwd=cwd,
                shell=spec.shell,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except FileNotFoundError as exc:
            raise VerifyCommandError(f"verify command not found: {argv[0]}") from exc
        except PermissionError as exc:
            raise VerifyCommandError(f"verify command not executable: {argv[0]}") from exc
        with _running_lock:
            _running.add(process)
        try:
            returncode: int | None = process.wait(timeout=spec.timeout)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            returncode = None
        except BaseException:  # Ctrl-C: do not leave the test suite running behind us
            _kill_group(process)
            raise
        finally:
            with _running_lock:
                _running.discard(process)
        if _stopping.is_set():
            raise VerifyInterrupted("interrupted")
        seconds = time.monotonic() - started
        output.seek(0, os.SEEK_END)
        size = output.tell()
        output.seek(max(0, size - TAIL_CHARS * 4))
        text = output.read().decode("utf-8", errors="replace")
    return VerifyRun(returncode, seconds, _tail(text))


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=10)


def _tail(text: str) -> str:
    lines = text.rstrip().splitlines()[-TAIL_LINES:]
    tail = "\n".join(lines)
    return tail[-TAIL_CHARS:]
