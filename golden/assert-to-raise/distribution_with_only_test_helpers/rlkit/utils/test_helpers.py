"""Helpers for the tests of rlkit's users: named like a test module, holding no test."""


def check_schedule(schedule, steps):
    assert len(schedule) == steps
