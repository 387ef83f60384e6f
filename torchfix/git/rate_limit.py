"""Pacing for work a remote host throttles (`torchfix batch --max-pushes-per-minute`)."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """At most `per_minute` acquisitions in any minute.

    The bucket holds one token, so acquisitions are spaced evenly (60 / per_minute
    seconds apart) rather than sent in a burst at the start of each minute: hosts
    throttle bursts, and an even pace never trips a per-minute limit.
    """

    def __init__(
        self,
        per_minute: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if per_minute <= 0:
            raise ValueError("per_minute must be positive")
        self.interval = 60.0 / per_minute
        self._clock = clock
        self._sleep = sleep
        self._tokens = 1.0
        self._updated = clock()

    def acquire(self) -> float:
        """Take a token, waiting for one if needed; return the seconds waited."""
        now = self._clock()
        self._tokens = min(1.0, self._tokens + (now - self._updated) / self.interval)
        self._updated = now
        wait = 0.0
        if self._tokens < 1.0:
            wait = (1.0 - self._tokens) * self.interval
            self._sleep(wait)
            self._tokens, self._updated = 1.0, now + wait
        self._tokens -= 1.0
        return wait
