"""The project model's facts read from the repository's own files."""

from __future__ import annotations

import pytest

from torchfix.model.project import Project


@pytest.mark.parametrize(("files", "expected"), [
    ({}, None),
    ({"pyproject.toml": "[tool.ruff]\nline-length = 120\n"}, 120),
    ({"pyproject.toml": "[tool.black]\nline-length = 100\n"}, 100),
    ({"pyproject.toml": "[tool.ruff]\nline-length = 99\n[tool.black]\nline-length = 100\n"}, 99),
    ({"pyproject.toml": "[tool.ruff.lint]\nselect = ['E']\n[tool.black]\nline-length = 79\n"},
     79),
    ({"ruff.toml": "line-length = 110\n", "pyproject.toml": "[tool.ruff]\nline-length = 90\n"},
     110),
    ({".ruff.toml": "line-length = 111\n", "ruff.toml": "line-length = 110\n"}, 111),
    ({"pyproject.toml": "[tool.ruff]\nline-length = 'long'\n"}, None),
    ({"pyproject.toml": "[tool.ruff\nline-length = 120\n"}, None),  # not TOML
])
def test_formatter_line_length(tmp_path, files, expected):
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert Project(tmp_path).formatter_line_length() == expected


def test_formatter_line_length_is_a_fact_of_the_result(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.black]\nline-length = 100\n")
    project = Project(tmp_path)
    project.formatter_line_length()
    assert project.facts_read == {"project:line-length": "100"}
    (tmp_path / "pyproject.toml").write_text("[tool.black]\nline-length = 120\n")
    assert project.current_digest("project:line-length") == "100"  # until refreshed
    project.refresh()
    assert project.current_digest("project:line-length") == "120"
