"""TorchFix's codes work wherever a codemod name does: --select/--ignore (with TorchFix's
prefix semantics), configuration, `# torchfix: ignore[...]`, flake8's `# noqa`, and the
outputs (`list`, JSON, SARIF)."""

from __future__ import annotations

import json

import pytest

from torchfix.rewrite import registry
from torchfix.rewrite.suppressions import find_suppressions, may_suppress

SOURCE = '''\
import torch


def run(a, b, A):
    x = torch.ger(a, b)
    y = torch.solve(b, A)
    return x, y
'''


def test_codes_and_prefixes_select_codemods_as_torchfix_did():
    names = lambda selected: {c.name for c in registry.select(selected)}  # noqa: E731
    assert names(["TOR101"]) >= {"deprecated-api"}
    assert "removed-api" not in names(["TOR101"])
    assert names(["TOR0"]) == {c.name for c in registry.all_codemods()
                               if any(code.startswith("TOR0") for code in registry.codes_of(c))}
    assert names(["TOR1"]) >= {"deprecated-api", "non-public-api"}
    assert names(["TOR"]) == {c.name for c in registry.all_codemods() if registry.codes_of(c)}
    assert registry.get("TOR104").name == "non-public-api"
    for unknown in ("TOR999", "TOR9999", "E501", "tor101"):
        with pytest.raises(registry.UnknownCodemodError):
            registry.select([unknown])
    assert {"TOR", "TOR1", "TOR10", "TOR101", "deprecated-api"} <= registry.known_names()


def test_select_and_ignore_by_code_on_the_command_line(tmp_path, cli):
    (tmp_path / "train.py").write_text(SOURCE)
    result = cli("check", "--show-all", "--quiet", "--select", "TOR0,TOR1", ".")
    assert [line.split()[1] for line in result.stdout.splitlines()] == [
        "deprecated-api", "removed-api"]
    result = cli("check", "--show-all", "--quiet", "--select", "TOR", "--ignore", "TOR001", ".")
    assert [line.split()[1] for line in result.stdout.splitlines()] == ["deprecated-api"]
    result = cli("check", "--select", "TOR777", ".")
    assert result.exit_code == 2 and "unknown codemod 'TOR777'" in result.stderr


def test_configuration_takes_codes(tmp_path, cli):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "p"\nversion = "0"\ndependencies = ["torch>=2.4"]\n'
        '[tool.torchfix]\nselect = ["TOR1"]\n'
        '[tool.torchfix.per-file-ignores]\n"legacy/*" = ["TOR101"]\n')
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "old.py").write_text(SOURCE)
    (tmp_path / "train.py").write_text(SOURCE)
    result = cli("check", "--quiet", ".")
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["train.py"]


def test_noqa_reads_torchfix_codes_the_flake8_way():
    source = (
        "x = torch.ger(a, b)  # noqa: TOR101\n"
        "x = torch.ger(a, b)  # noqa: E501, TOR1\n"
        "x = torch.ger(a, b)  # noqa\n"
        "x = torch.ger(a, b)  # noqa: E501\n"
        "x = torch.ger(a, b)  # torchfix: ignore[TOR101]\n"
        "x = '# noqa'\n"
    )
    found = find_suppressions(source)
    assert found.suppresses("deprecated-api", 1, 1)
    assert not found.suppresses("removed-api", 1, 1)
    assert found.suppresses("deprecated-api", 2, 2) and found.suppresses("non-public-api", 2, 2)
    # A bare noqa comment silences every rule that has a TorchFix code, and only those.
    assert found.suppresses("deprecated-api", 3, 3) and found.suppresses("removed-api", 3, 3)
    assert not found.suppresses("strict-load-state-dict", 3, 3)
    assert not found.suppresses("deprecated-api", 4, 4)
    assert found.suppresses("deprecated-api", 5, 5)
    assert 6 not in found.by_line
    assert not may_suppress(b"x = 1  # noqa: E501\n")
    assert may_suppress(b"x = 1  # noqa\n") and may_suppress(b"x = 1  # NOQA:TOR102\n")


def test_noqa_suppresses_in_check_and_apply(tmp_path, cli):
    (tmp_path / "train.py").write_text(SOURCE.replace(
        "torch.ger(a, b)", "torch.ger(a, b)  # noqa: TOR101"))
    assert cli("check", "--select", "TOR101", ".").exit_code == 0
    cli("apply", "--select", "TOR101", ".")
    assert "torch.ger(a, b)  # noqa: TOR101" in (tmp_path / "train.py").read_text()


def test_list_json_and_sarif_show_the_codes(tmp_path, cli):
    listed = cli("list").stdout
    assert "TOR101, TOR103" in listed and "codes" in listed
    (tmp_path / "requirements.txt").write_text("torch>=2.4\n")
    (tmp_path / "train.py").write_text(SOURCE)
    document = json.loads(cli("check", "--output-format", "json", "--select", "TOR", ".").stdout)
    assert [(f["codemod"], f["code"]) for f in document["findings"]] == [
        ("deprecated-api", "TOR101"), ("removed-api", "TOR001")]
    sarif = json.loads(cli("check", "--output-format", "sarif", "--select", "TOR", ".").stdout)
    run = sarif["runs"][0]
    assert [r["properties"]["code"] for r in run["results"]] == ["TOR101", "TOR001"]
    rules = {rule["id"]: rule["properties"]["codes"] for rule in run["tool"]["driver"]["rules"]}
    assert rules["removed-api"] == ["TOR001", "TOR004"]
    assert rules["strict-load-state-dict"] == []
    github = cli("check", "--output-format", "github", "--select", "TOR", ".").stdout
    assert "title=torchfix (deprecated-api TOR101)" in github
    gitlab = json.loads(cli("check", "--output-format", "gitlab", "--select", "TOR", ".").stdout)
    assert [issue["description"].split(":")[0] for issue in gitlab] == [
        "deprecated-api TOR101", "removed-api TOR001"]
