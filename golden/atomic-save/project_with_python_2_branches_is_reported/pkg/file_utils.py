# The project declares no Python version, but its code still branches on Python 2
# (pytorch-pretrained-bert 0.6.2, round 23): it supports Python 2.7, where the helper's
# f-strings would not even parse, so its saves are only reported.
import sys


def to_text(value):
    if sys.version_info[0] == 2 and isinstance(value, str):
        return value.decode("utf-8")
    return value
