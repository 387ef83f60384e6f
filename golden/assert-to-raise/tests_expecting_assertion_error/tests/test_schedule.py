import unittest

from rlcfg import config


class ScheduleTest(unittest.TestCase):
    def test_rejects_empty_schedule(self):
        self.assertRaises(AssertionError, config.linear_schedule, 1.0, 0.0, 0)
