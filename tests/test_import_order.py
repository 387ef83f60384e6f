"""New imports where isort puts them: planned on CPython's tree, placed on libcst's."""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
import pytest

from torchfix.model.project import Project, module_name_for
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
