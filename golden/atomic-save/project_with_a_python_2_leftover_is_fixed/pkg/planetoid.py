# A Python 2 branch copied with a dataset loader (cogdl 0.6, round 23), in a project whose
# modules use f-strings (more of them than branch on Python 2): it runs on Python 3.6 and
# later only, so the branch is a leftover and the saves are fixed as anywhere else.
import pickle
import sys


def read(handle):
    if sys.version_info > (3, 0):
        return pickle.load(handle, encoding="latin1")
    return pickle.load(handle)
