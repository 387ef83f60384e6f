"""New imports where isort puts them: planned on CPython's tree, placed on libcst's."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import libcst as cst
import pytest

from torchfix.model.module_names import module_name_for
from torchfix.model.project import Project
from torchfix.rewrite.contract import FileContext
from torchfix.rewrite.edits import insert_imports, statement_indexes
from torchfix.rewrite.import_order import NewImport, plan_imports


def with_imports(tmp_path: Path, source: str, *imports: NewImport,
                 name: str = "pkg/train.py") -> str:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if "/" in name:
        (path.parent / "__init__.py").write_text("")
    path.write_text(source)
    file = FileContext(path, source, ast.parse(source), Project(tmp_path),
                       module_name_for(path))
    plan = plan_imports(file, imports)
    module = cst.parse_module(source)
    new, _ = insert_imports(module, plan, statement_indexes(module))
    return new.code


HELPER = NewImport("pkg.helpers", "helper")


@pytest.mark.parametrize(("source", "new", "expected"), [
    # Plain imports before from-imports, in name order.
    ("import sys\nfrom pathlib import Path\n\nimport torch\n", NewImport("os"),
     "import os\nimport sys\nfrom pathlib import Path\n\nimport torch\n"),
    # A first-party import joins the file's own package's group, after the plain ones.
    ("import torch\n\nimport pkg.models\nfrom pkg.zoo import Net\n", HELPER,
     "import torch\n\nimport pkg.models\nfrom pkg.helpers import helper\n"
     "from pkg.zoo import Net\n"),
    # No first-party group: a new one between third-party and local imports.
    ("import torch\n\nfrom . import utils\n", HELPER,
     "import torch\n\nfrom pkg.helpers import helper\n\nfrom . import utils\n"),
])
def test_imports_join_their_section_in_order(tmp_path: Path, source: str, new: NewImport,
                                             expected: str) -> None:
    assert with_imports(tmp_path, source, new) == expected


def test_a_new_standard_library_group_keeps_comments_with_the_group_below(tmp_path: Path
                                                                          ) -> None:
    source = '"""Doc."""\n\n# third party\nimport torch\n'
    assert with_imports(tmp_path, source, NewImport("os")) == (
        '"""Doc."""\n\nimport os\n\n# third party\nimport torch\n')


def test_statements_sharing_a_line_count_as_one_line(tmp_path: Path) -> None:
    source = "import sys; import torch\nx = 1\n"
    # CPython sees two import statements; the new one goes after the line holding both.
    assert with_imports(tmp_path, source, NewImport("tempfile"), name="script.py") == (
        "import sys; import torch\nimport tempfile\nx = 1\n")


# -- the project's sorting settings ------------------------------------------------------------

FORCE_SORTED = (
    "from collections import namedtuple\nimport inspect\nimport os\n"
    "from typing import Any\nimport warnings\n\nimport torch\n"
)


@pytest.mark.parametrize("config", [
    ("pyproject.toml", "[tool.ruff.lint.isort]\nforce-sort-within-sections = true\n"),
    ("pyproject.toml", "[tool.ruff.isort]\nforce-sort-within-sections = true\n"),
    ("ruff.toml", "[lint.isort]\nforce-sort-within-sections = true\n"),
    ("pyproject.toml", "[tool.isort]\nforce_sort_within_sections = true\n"),
    ("pyproject.toml", '[tool.isort]\nprofile = "google"\n'),
    ("setup.cfg", "[isort]\nforce_sort_within_sections = True\n"),
    (".isort.cfg", "[settings]\nforce_sort_within_sections=true\n"),
    ("tox.ini", "[tool:isort]\nprofile = open_stack\n"),
])
def test_force_sort_within_sections_mixes_plain_and_from_imports(
        tmp_path: Path, config: tuple[str, str]) -> None:
    (tmp_path / config[0]).write_text(config[1])
    new = with_imports(tmp_path, FORCE_SORTED, NewImport("shutil"), NewImport("tempfile"),
                       NewImport("typing"), NewImport("abc"))
    assert new == (
        "import abc\nfrom collections import namedtuple\nimport inspect\nimport os\n"
        "import shutil\nimport tempfile\nimport typing\nfrom typing import Any\n"
        "import warnings\n\nimport torch\n")


def test_force_sort_within_sections_can_be_turned_off_under_a_profile(tmp_path: Path
                                                                       ) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.isort]\nprofile = "google"\nforce_sort_within_sections = false\n')
    source = "import os\nfrom typing import Any\n\nimport torch\n"
    assert with_imports(tmp_path, source, NewImport("tempfile")) == (
        "import os\nimport tempfile\nfrom typing import Any\n\nimport torch\n")


def test_ruff_settings_win_over_isort_settings(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.ruff.lint.isort]\ncombine-as-imports = true\n\n"
        "[tool.isort]\nforce_sort_within_sections = true\n")
    source = "import os\nfrom typing import Any\n\nimport torch\n"
    assert with_imports(tmp_path, source, NewImport("tempfile")) == (
        "import os\nimport tempfile\nfrom typing import Any\n\nimport torch\n")


def test_known_first_party_is_a_section_of_its_own(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ruff.lint.isort]\nknown-first-party = ["trainlib"]\n')
    source = "import os\n\nimport torch\n\nimport trainlib.models\n"
    assert with_imports(tmp_path, source, NewImport("trainlib.helpers", "helper"),
                        name="script.py") == (
        "import os\n\nimport torch\n\nimport trainlib.models\n"
        "from trainlib.helpers import helper\n")


def test_numbers_in_module_names_sort_naturally(tmp_path: Path) -> None:
    source = "import torch\nimport torch2\nimport torch10\n"
    assert with_imports(tmp_path, source, NewImport("torch3"), name="script.py") == (
        "import torch\nimport torch2\nimport torch3\nimport torch10\n")


def test_ruff_agrees_with_the_force_sorted_placement(tmp_path: Path) -> None:
    """ruff's own I001 check, at the project's settings, passes the planned imports."""
    (tmp_path / "pyproject.toml").write_text(
        "[tool.ruff.lint.isort]\nforce-sort-within-sections = true\n")
    source = (
        "from collections.abc import Callable\nfrom copy import deepcopy\nimport inspect\n"
        "import logging\nimport os\nfrom typing import IO, Any\nimport warnings\n\n"
        "import numpy as np\nimport torch\n\nfrom pkg.data import Data\n")
    new = with_imports(tmp_path, source, *(NewImport(name) for name in
                                           ("shutil", "tempfile", "typing")))
    (tmp_path / "pkg" / "train.py").write_text(new)
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "I001", "--no-fix", "--no-cache",
         "--output-format", "concise", "pkg/train.py"],
        cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + new
    assert "import shutil\nimport tempfile\nimport typing\nfrom typing import IO" in new


@pytest.mark.parametrize(("source", "new", "expected"), [
    # Furthest first: `..` before `.`, whatever the module names say.
    ("import torch\n\nfrom ..models import Net\nfrom .utils import log\n",
     NewImport("_helper", "helper", 2),
     "import torch\n\nfrom .._helper import helper\nfrom ..models import Net\n"
     "from .utils import log\n"),
    ("import torch\n\nfrom ..models import Net\nfrom .utils import log\n",
     NewImport("zeta", "helper", 1),
     "import torch\n\nfrom ..models import Net\nfrom .utils import log\n"
     "from .zeta import helper\n"),
    ("import torch\n\nfrom .utils import log\n", NewImport("aaa", "helper", 2),
     "import torch\n\nfrom ..aaa import helper\nfrom .utils import log\n"),
    # No relative import yet: a group of its own after the others.
    ("import os\n\nimport torch\n", NewImport("helpers", "helper", 1),
     "import os\n\nimport torch\n\nfrom .helpers import helper\n"),
])
def test_relative_imports_sort_furthest_first(tmp_path: Path, source: str, new: NewImport,
                                               expected: str) -> None:
    result = with_imports(tmp_path, source, new, name="pkg/sub/train.py")
    assert result == expected
    (tmp_path / "pkg" / "sub" / "train.py").write_text(result)
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--select", "I001", "--no-fix",
         "--no-cache", "--output-format", "concise", "pkg/sub/train.py"],
        cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + result


@pytest.mark.parametrize(("source", "new", "expected"), [
    # From-imports first (catalyst's order): a plain import among the plain ones...
    ("from typing import Any\nimport collections\nimport os\n\nimport torch\n",
     NewImport("shutil"),
     "from typing import Any\nimport collections\nimport os\nimport shutil\n\nimport torch\n"),
    # ... a from-import among the from-imports, before the plain ones
    ("from typing import Any\nimport os\n\nimport torch\n", NewImport("zipfile", "ZipFile"),
     "from typing import Any\nfrom zipfile import ZipFile\nimport os\n\nimport torch\n"),
    ("from typing import Any\nimport os\n\nimport torch\n",
     NewImport("collections", "OrderedDict"),
     "from collections import OrderedDict\nfrom typing import Any\nimport os\n\n"
     "import torch\n"),
    # Sorted together by hand, with no setting saying so: by module name, as isort's
    # force-sort-within-sections would
    ("from collections import namedtuple\nimport os\nfrom typing import Any\n"
     "import warnings\n", NewImport("typing"),
     "from collections import namedtuple\nimport os\nimport typing\nfrom typing import Any\n"
     "import warnings\n"),
    ("from collections import namedtuple\nimport os\nfrom typing import Any\n"
     "import warnings\n", NewImport("abc"),
     "import abc\nfrom collections import namedtuple\nimport os\nfrom typing import Any\n"
     "import warnings\n"),
    # Interleaved but not sorted by name (pytorch-accelerated's `import warnings` after
    # its from-imports): no order to read, the settings' order among the plain imports
    ("import math\nimport os\nfrom enum import Enum\nfrom typing import Iterable\n"
     "import warnings\n", NewImport("shutil"),
     "import math\nimport os\nimport shutil\nfrom enum import Enum\n"
     "from typing import Iterable\nimport warnings\n"),
    # The first of its kind in its section: where the file's other sections put that kind
    ("import os\n\nfrom torch import nn\nimport numpy\n", NewImport("typing", "Any"),
     "from typing import Any\nimport os\n\nfrom torch import nn\nimport numpy\n"),
    ("import os\n\nimport numpy\nfrom torch import nn\n", NewImport("typing", "Any"),
     "import os\nfrom typing import Any\n\nimport numpy\nfrom torch import nn\n"),
])
def test_imports_follow_the_files_own_order(tmp_path: Path, source: str, new: NewImport,
                                            expected: str) -> None:
    assert with_imports(tmp_path, source, new, name="script.py") == expected
