"""swallowed-exception, executed: a bug in an optional diagnostic is still survived, and
after the rewrite its traceback reaches the module's logger at debug level."""

from __future__ import annotations

import logging
from pathlib import Path

from torchfix.smoke import Scenario, expect, load_module, rewrite

CODEMOD = "swallowed-exception"

MONITOR = '''
import logging

logger = logging.getLogger("smoke.monitor")


def collect(agent, payload):
    try:
        payload["grad_norm"] = agent.policy.grad_norm()  # the agent has no `policy`
    except Exception:
        pass  # graceful degradation
    payload["step"] = agent.step
    return payload
'''


class _Agent:
    step = 3


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def the_swallowed_error_is_logged(folder: Path) -> None:
    fixed_source = rewrite(MONITOR, CODEMOD, unsafe_fixes=True)
    logger = logging.getLogger("smoke.monitor")
    handler = _Records()
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        for stem, source in (("monitor_before", MONITOR), ("monitor_after", fixed_source)):
            handler.records.clear()
            module = load_module(source, folder, stem)
            payload = module.collect(_Agent(), {})
            expect(payload == {"step": 3}, f"{stem}: the diagnostic's failure was not survived")
            if stem == "monitor_before":
                expect(not handler.records, "the original logged something")
                continue
            expect(len(handler.records) == 1, "the rewrite did not log the exception once")
            record = handler.records[0]
            expect(record.levelno == logging.DEBUG, "the exception was not logged at debug")
            expect(record.exc_info is not None and record.exc_info[0] is AttributeError,
                   "the log record does not carry the AttributeError's traceback")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


SCENARIOS = [
    Scenario(CODEMOD, "the_swallowed_error_is_logged", the_swallowed_error_is_logged),
]
