"""Codemods on the contract decide without libcst: their modules (and everything they
import) never load it, so `torchfix check` needs no libcst parse for them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from torchfix.rewrite import registry
from torchfix.rewrite.contract import is_codemod

REPO = Path(__file__).resolve().parent.parent

# `codemods/__init__.py` imports every codemod, the legacy libcst ones too: the package is
# stubbed so that each module is imported on its own.
_SCRIPT = '''
import importlib, sys, types
package = types.ModuleType("codemods")
package.__path__ = [sys.argv[1] + "/codemods"]
sys.modules["codemods"] = package
loaded = []
for name in sys.argv[2:]:
    importlib.import_module(name)
    if "libcst" in sys.modules:
        loaded.append(name)
        break
print(",".join(loaded))
'''


def test_contract_codemods_do_not_import_libcst():
    modules = sorted({c.__module__ for c in registry.all_codemods() if is_codemod(c)})
    assert modules
    done = subprocess.run([sys.executable, "-c", _SCRIPT, str(REPO), *modules],
                          capture_output=True, text=True, check=True, cwd=REPO)
    assert done.stdout.strip() == "", f"imports libcst: {done.stdout.strip()}"
