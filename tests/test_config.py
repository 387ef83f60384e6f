"""[tool.torchfix] in the nearest pyproject.toml, merged with the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from torchfix.engine.config import ConfigError, find_config, load_config, validate_options
from torchfix.rewrite.contract import Option

from conftest import FIXED, NEEDS_FIX, UNSAFE_ONLY


def project(tmp_path: Path, config: str, files: dict[str, str]) -> Path:
    # a project that names its torch, as most do (one listing no dependency at all may run
    # any torch: its version-gated fixes are unsafe, see test_project_model)
    (tmp_path / "requirements.txt").write_text("torch>=2.4\n")
    (tmp_path / "pyproject.toml").write_text(config)
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_config_ignore_and_command_line_select_wins(tmp_path, cli):
    project(tmp_path, '[tool.torchfix]\nignore = ["strict-load-state-dict"]\n',
            {"train.py": NEEDS_FIX})
    assert cli("check", ".").exit_code == 0
    assert cli("check", "--select", "strict-load-state-dict", ".").exit_code == 1


def test_config_unsafe_fixes_and_command_line_override(tmp_path, cli):
    project(tmp_path, "[tool.torchfix]\nunsafe-fixes = true\n", {"train.py": UNSAFE_ONLY})
    assert cli("check", ".").exit_code == 1
    assert cli("check", "--no-unsafe-fixes", ".").exit_code == 0


def test_config_exclude_is_anchored_at_the_config_file(tmp_path, cli, monkeypatch):
    project(tmp_path, '[tool.torchfix]\nexclude = ["/generated_models/"]\n',
            {"generated_models/a.py": NEEDS_FIX, "src/generated_models/b.py": NEEDS_FIX})
    monkeypatch.chdir(tmp_path / "src")
    result = cli("check", str(tmp_path))
    paths = [line.split(":")[0] for line in result.stdout.splitlines()]
    assert paths == ["generated_models/b.py"]


def test_nearest_pyproject_with_a_torchfix_table_is_used(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.torchfix]\nignore = ["x"]\n')
    inner = tmp_path / "pkg"
    inner.mkdir()
    (inner / "pyproject.toml").write_text("[project]\nname = 'pkg'\n")  # no table: skipped
    assert find_config(inner) == tmp_path / "pyproject.toml"


def test_explicit_config_file(tmp_path, cli):
    project(tmp_path, "[project]\nname='x'\n", {"train.py": NEEDS_FIX})
    (tmp_path / "ci.toml").write_text('[tool.torchfix]\nignore = ["strict-load-state-dict"]\n')
    assert cli("check", "--config", "ci.toml", ".").exit_code == 0
    result = cli("check", "--config", "missing.toml", ".")
    assert result.exit_code == 2
    assert "missing.toml: configuration file not found" in result.stderr


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("[tool.torchfix]\nselekt = []\n", "unknown key 'selekt' in [tool.torchfix]"),
        ('[tool.torchfix]\nselect = "ALL\n', "invalid TOML"),
        ("[tool.torchfix]\nunsafe-fixes = 'yes'\n", "unsafe-fixes must be true or false"),
        ('[tool.torchfix]\nignore = ["nope"]\n', "unknown codemod 'nope'"),
        ("[tool.torchfix.strict-load-state-dict]\nstrictness = 1\n",
         "unknown option 'strictness' for strict-load-state-dict"),
        ("[tool.torchfix.no-such-codemod]\nx = 1\n", "unknown codemod 'no-such-codemod'"),
    ],
)
def test_bad_configuration_is_one_clear_line_and_exit_2(tmp_path, cli, config, message):
    project(tmp_path, config, {"train.py": NEEDS_FIX})
    result = cli("check", ".")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "pyproject.toml" in lines[0] and message in lines[0]
    assert (tmp_path / "train.py").read_text() == NEEDS_FIX


class _WithOptions:
    name = "demo"
    options = (Option("bound", 20.0, "a float"), Option("enabled", True, "a flag"))


def test_codemod_options_are_type_checked(tmp_path):
    path = tmp_path / "pyproject.toml"
    assert validate_options(path, _WithOptions, {"bound": 10}) == {"bound": 10.0}
    with pytest.raises(ConfigError, match="bound must be float, got 'x'"):
        validate_options(path, _WithOptions, {"bound": "x"})
    with pytest.raises(ConfigError, match="enabled must be bool"):
        validate_options(path, _WithOptions, {"enabled": 1})


def test_no_config_means_defaults(tmp_path):
    config = load_config(None)
    assert config.select is None and config.ignore == () and not config.unsafe_fixes


def test_config_applies_with_apply_too(tmp_path, cli):
    project(tmp_path, '[tool.torchfix]\nselect = ["ALL"]\n', {"train.py": NEEDS_FIX})
    assert cli("apply", ".").exit_code == 0
    assert (tmp_path / "train.py").read_text() == FIXED


# -- extend-select, per-file-ignores, extend-exclude ----------------------------------------

AMP = "from torch.cuda.amp import autocast\nmixed_precision = autocast()\n"


def _codemods(result) -> list[tuple[str, str]]:
    return [(line.split(":")[0], line.split()[1]) for line in result.stdout.splitlines()]


def test_extend_select_adds_to_the_selection_and_select_on_the_command_line_replaces_it(
    tmp_path, cli
):
    project(tmp_path, '[tool.torchfix]\nselect = ["amp-api"]\n'
            'extend-select = ["strict-load-state-dict"]\n',
            {"train.py": AMP + NEEDS_FIX})
    assert {name for _path, name in _codemods(cli("check", "."))} == {
        "amp-api", "strict-load-state-dict"}
    only = cli("check", "--select", "amp-api", ".")
    assert {name for _path, name in _codemods(only)} == {"amp-api"}
    extended = cli("check", "--select", "amp-api", "--extend-select",
                   "strict-load-state-dict", ".")
    assert {name for _path, name in _codemods(extended)} == {"amp-api", "strict-load-state-dict"}


def test_per_file_ignores_turn_codemods_off_for_matching_files(tmp_path, cli, monkeypatch):
    project(tmp_path, '[tool.torchfix.per-file-ignores]\n'
            '"tests/*" = ["strict-load-state-dict"]\n'
            '"legacy_*.py" = ["ALL"]\n',
            {"tests/unit/test_a.py": AMP + NEEDS_FIX, "src/a.py": NEEDS_FIX,
             "src/old/legacy_b.py": NEEDS_FIX})
    monkeypatch.chdir(tmp_path / "src")  # globs are relative to the configuration file
    result = cli("check", str(tmp_path))
    assert set(_codemods(result)) == {
        ("a.py", "strict-load-state-dict"),
        (str(tmp_path / "tests/unit/test_a.py"), "amp-api"),
    }
    cli("apply", "--no-record", str(tmp_path))
    assert (tmp_path / "src/a.py").read_text() == FIXED
    assert "strict=True" not in (tmp_path / "tests/unit/test_a.py").read_text()
    assert (tmp_path / "src/old/legacy_b.py").read_text() == NEEDS_FIX


def test_extend_exclude_skips_files_like_exclude(tmp_path, cli):
    project(tmp_path, '[tool.torchfix]\nexclude = ["vendor/"]\nextend-exclude = ["legacy/"]\n',
            {"train.py": NEEDS_FIX, "vendor/v.py": NEEDS_FIX, "legacy/l.py": NEEDS_FIX})
    assert [path for path, _name in _codemods(cli("check", "."))] == ["train.py"]


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ('[tool.torchfix.per-file-ignores]\n"tests/*" = ["nope"]\n',
         "per-file-ignores 'tests/*': unknown codemod 'nope'"),
        ('[tool.torchfix]\nper-file-ignores = ["tests/*"]\n', "per-file-ignores must be a table"),
        ('[tool.torchfix]\nextend-select = ["strict-load-state-dcit"]\n',
         "did you mean 'strict-load-state-dict'?"),
        ("[tool.torchfix]\nkeep-runs = -1\n", "keep-runs must be a whole number"),
    ],
)
def test_bad_new_settings_are_one_line_and_exit_2(tmp_path, cli, config, message):
    project(tmp_path, config, {"train.py": NEEDS_FIX})
    result = cli("check", ".")
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert message in result.stderr
