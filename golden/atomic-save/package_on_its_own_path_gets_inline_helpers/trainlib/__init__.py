"""A small training library.

deepbach-pytorch (round 51) puts its own folder on `sys.path`, so its modules are also
imported as top-level `rl.agent`: an import of a shared `trainlib._torchfix_atomic_save`
would be circular there. Each saving module gets the inline helper instead.
"""
import os
import sys

PACKAGE_ROOT = os.path.dirname(os.path.abspath(__file__))
if PACKAGE_ROOT not in sys.path:
    sys.path.insert(0, PACKAGE_ROOT)

__version__ = "0.3.0"
