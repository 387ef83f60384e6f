import unittest

from experiments import run_experiment


class HorizonTest(unittest.TestCase):
    def test_horizon(self):
        with self.assertRaisesRegex(AssertionError, "horizon must be positive"):
            run_experiment(horizon=0)
