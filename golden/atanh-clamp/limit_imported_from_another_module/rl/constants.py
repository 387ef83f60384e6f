"""Limits shared by the policies."""

ACTION_LIMIT = 0.999999
LOG_STD_MIN, LOG_STD_MAX = -20.0, 2.0
