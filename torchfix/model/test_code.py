"""Which files hold tests or test helpers, for codemods that leave test code alone."""

from __future__ import annotations

import contextlib
import os
from pathlib import PurePath

TEST_FOLDERS = frozenset({"test", "tests", "testing", "test_utils"})
TEST_HELPER_FILES = frozenset({"conftest.py", "testing.py", "testing_utils.py", "test_utils.py"})


def is_test_path(path: str | os.PathLike[str] | None) -> bool:
    """Whether the file holds tests or test helpers, judged below the working folder.

    Folders above the working folder do not count: a project checked out under
    `~/test/` is not all tests.
    """
    if not path:
        return False
    absolute = PurePath(os.path.abspath(path))
    relative = absolute
    with contextlib.suppress(ValueError):  # outside the working folder: judge it whole
        relative = absolute.relative_to(os.getcwd())
    name = relative.name
    return (
        name.startswith("test_")
        or name.endswith("_test.py")
        or name in TEST_HELPER_FILES
        or any(folder in TEST_FOLDERS for folder in relative.parts[:-1])
    )
