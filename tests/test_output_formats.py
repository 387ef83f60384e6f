"""`check --output-format`: every format parsed the way its consumer reads it."""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import jsonschema
import pytest

from torchfix import PROJECT_URL
from torchfix.rewrite import registry

from conftest import git

# A safe fix, a finding for a human, an unsafe fix and a fix that inserts a helper far from
# the line it changes (atomic-save): every kind of finding, in one file.
SOURCE = '''\
import torch


def resume(model: torch.nn.Module, ckpt):
    model.load_state_dict(ckpt)
    model.load_state_dict(ckpt, strict=False)


def resume_other(thing, ckpt):
    thing.load_state_dict(ckpt)


def save_checkpoint(model, path):
    torch.save(model.state_dict(), path)


def fit(model, path):
    save_checkpoint(model, path)
'''
# Unparsable, and holding what a codemod looks for (files without are never parsed).
BROKEN = "def f(model):\n    model.load_state_dict(\n"
FAILING = [(5, 5, "strict-load-state-dict"), (14, 5, "atomic-save")]
ALL = [(5, 5, "strict-load-state-dict"), (6, 5, "strict-load-state-dict"),
       (10, 5, "strict-load-state-dict"), (14, 5, "atomic-save")]


@pytest.fixture
def project(git_repo: Path, cli, monkeypatch) -> Path:
    """A repository whose file lives in a subfolder; torchfix runs from that subfolder."""
    (git_repo / "src").mkdir()
    (git_repo / "src" / "train.py").write_text(SOURCE)
    monkeypatch.chdir(git_repo / "src")
    return git_repo


def _applied_text(tmp: Path, project: Path) -> str:
    """What `apply` writes, from a copy of the file."""
    copy = tmp / "copy"
    copy.mkdir()
    (copy / "train.py").write_text(SOURCE)
    from conftest import EXPLICIT_STRICT_CONFIG, run_torchfix

    # a subprocess does not see the suite's in-process default: the configuration says it
    (copy / "pyproject.toml").write_text(EXPLICIT_STRICT_CONFIG)

    assert run_torchfix("apply", "--no-record", "--no-cache", "train.py", cwd=copy).returncode == 0
    return (copy / "train.py").read_text()


def _apply_edits(text: str, edits: set[tuple[int, int, int, int, str]]) -> str:
    """Apply (line, column, end_line, end_column, content) edits, each once."""
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    for line, column, end_line, end_column, content in sorted(edits, reverse=True):
        start = starts[line - 1] + column - 1
        end = starts[end_line - 1] + end_column - 1
        text = text[:start] + content + text[end:]
    return text


def _check(cli, *args: str):
    return cli("check", "--no-cache", *args, "train.py")


# -- text formats ---------------------------------------------------------------------------


def test_full_is_the_default_and_the_text_alias(project, cli):
    default = _check(cli)
    assert default.exit_code == 1
    assert default.stdout == _check(cli, "--output-format", "full").stdout
    assert default.stdout == _check(cli, "--format", "text").stdout
    places = [re.match(r"(.+):(\d+):(\d+) (\S+) ", line).groups()
              for line in default.stdout.splitlines()]
    assert [(int(line), int(col), name) for _path, line, col, name in places] == FAILING


def test_concise_lines_match_an_editor_error_format(project, cli):
    # The pattern of a GitHub problem matcher / vim errorformat: file:line:col: message.
    pattern = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+): (?P<code>\S+) "
                         r"(?P<message>.+)$")
    result = _check(cli, "--output-format", "concise", "--show-all")
    matches = [pattern.match(line) for line in result.stdout.splitlines()]
    assert all(matches)
    assert [(int(m["line"]), int(m["column"]), m["code"]) for m in matches] == ALL
    assert {m["file"] for m in matches} == {"train.py"}
    assert matches[1]["message"].endswith("[no automatic fix]")


def test_grouped_puts_findings_under_their_file(project, cli):
    (project / "src" / "other.py").write_text(SOURCE)
    result = cli("check", "--output-format", "grouped", "train.py", "other.py")
    blocks = [block.splitlines() for block in result.stdout.strip().split("\n\n")]
    assert [block[0] for block in blocks] == ["other.py:", "train.py:"]
    for block in blocks:
        rows = [line.split()[:2] for line in block[1:]]
        assert rows == [["5:5", "strict-load-state-dict"], ["14:5", "atomic-save"]]


def test_statistics_count_per_codemod_and_list_no_findings(project, cli):
    result = _check(cli, "--statistics", "--show-all")
    rows = [line.split() for line in result.stdout.splitlines()]
    assert sorted(rows) == sorted([
        ["1", "atomic-save", "safe", "fails"],
        ["1", "strict-load-state-dict", "safe", "fails"],
        ["1", "strict-load-state-dict", "unsafe"],
        ["1", "strict-load-state-dict", "manual"],
    ])
    assert result.exit_code == 1  # statistics do not change what fails
    counted = json.loads(_check(cli, "--statistics", "--output-format", "json").stdout)
    assert {(row["codemod"], row["safety"]): row["count"] for row in counted} == {
        ("atomic-save", "safe"): 1, ("strict-load-state-dict", "safe"): 1,
        ("strict-load-state-dict", "unsafe"): 1, ("strict-load-state-dict", "manual"): 1,
    }
    refused = _check(cli, "--statistics", "--output-format", "sarif")
    assert refused.exit_code == 2
    assert refused.stderr.count("\n") == 1


def test_exit_zero_passes_with_pending_fixes_but_not_with_broken_files(project, cli):
    assert _check(cli, "--exit-zero").exit_code == 0
    (project / "src" / "broken.py").write_text(BROKEN)
    result = cli("check", "--exit-zero", "train.py", "broken.py")
    assert result.exit_code == 1
    assert "broken.py: error: syntax error" in result.stderr
    assert cli("check", "--exit-zero", "--select", "nope", ".").exit_code == 2


# -- JSON -----------------------------------------------------------------------------------


def test_json_document_positions_links_and_fix_edits(project, cli, tmp_path):
    result = _check(cli, "--output-format", "json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["schema_version"] == 2
    findings = document["findings"]
    assert [(f["line"], f["column"], f["codemod"]) for f in findings] == ALL
    for finding in findings:
        assert "applied" not in finding  # check applies nothing
        assert not {"seconds", "time", "duration"} & set(finding)  # no timing in findings
        assert finding["url"] == f"{PROJECT_URL}#{finding['codemod']}"
        assert (finding["end_line"], finding["end_column"]) > (finding["line"],
                                                                 finding["column"])
    by_safety = {f["safety"]: f for f in findings}
    assert by_safety["manual"]["fix"] is None
    assert by_safety["unsafe"]["fix"] == {"applicability": "unsafe", "applies": False,
                                          "edits": []}
    assert by_safety["safe"]["fix"]["applies"] is True
    # The edits of the fixes that apply, each applied once, give what `apply` writes.
    edits = {
        (e["location"]["line"], e["location"]["column"], e["end_location"]["line"],
         e["end_location"]["column"], e["content"])
        for f in findings if f["fix"] and f["fix"]["applies"] for e in f["fix"]["edits"]
    }
    assert _apply_edits(SOURCE, edits) == _applied_text(tmp_path, project)
    strict = next(f for f in findings if f["fix"] and f["codemod"] == "strict-load-state-dict")
    # Two codemods change the file: each fix holds its own codemod's edits only (the
    # helper and imports atomic-save adds far from any change are atomic-save's).
    assert strict["fix"]["edits"] == [
        {"content": ", strict=True", "location": {"line": 5, "column": 31},
         "end_location": {"line": 5, "column": 31}}
    ]
    atomic = next(f for f in findings if f["codemod"] == "atomic-save")
    assert len(atomic["fix"]["edits"]) > 1
    assert all("strict" not in e["content"] for e in atomic["fix"]["edits"])


def test_json_lines_is_one_finding_per_line(project, cli):
    document = json.loads(_check(cli, "--output-format", "json").stdout)
    lines = _check(cli, "--output-format", "json-lines").stdout.splitlines()
    assert [json.loads(line) for line in lines] == document["findings"]


# -- SARIF ----------------------------------------------------------------------------------

_REGION = {
    "type": "object",
    "properties": {key: {"type": "integer", "minimum": 1}
                   for key in ("startLine", "startColumn", "endLine", "endColumn")},
    "required": ["startLine"],
    "additionalProperties": False,
}
_MESSAGE = {"type": "object", "properties": {"text": {"type": "string", "minLength": 1}},
            "required": ["text"]}
_ARTIFACT = {
    "type": "object",
    "properties": {"uri": {"type": "string", "format": "uri-reference"},
                   "uriBaseId": {"type": "string"}},
    "required": ["uri"],
    "additionalProperties": False,
}
_LEVEL = {"enum": ["none", "note", "warning", "error"]}
_LOCATION = {
    "type": "object",
    "properties": {"physicalLocation": {
        "type": "object",
        "properties": {"artifactLocation": _ARTIFACT, "region": _REGION},
        "required": ["artifactLocation"],
        "additionalProperties": False,
    }},
    "additionalProperties": False,
}
# The parts of the SARIF 2.1.0 schema that GitHub code scanning reads, with the
# schema's own types, required properties and enumerations.
SARIF_SUBSET = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "$schema": {"type": "string"},
        "version": {"const": "2.1.0"},
        "runs": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["tool"],
            "additionalProperties": False,
            "properties": {
                "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
                    "type": "object",
                    "required": ["name"],
                    "additionalProperties": False,
                    "properties": {
                        "name": {"type": "string"},
                        "version": {"type": "string"},
                        "semanticVersion": {"type": "string"},
                        "informationUri": {"type": "string", "format": "uri"},
                        "rules": {"type": "array", "items": {
                            "type": "object",
                            "required": ["id"],
                            "additionalProperties": False,
                            "properties": {
                                "id": {"type": "string"},
                                "name": {"type": "string"},
                                "shortDescription": _MESSAGE,
                                "fullDescription": _MESSAGE,
                                "help": {"type": "object",
                                         "properties": {"text": {"type": "string"},
                                                        "markdown": {"type": "string"}},
                                         "required": ["text"]},
                                "helpUri": {"type": "string", "format": "uri"},
                                "defaultConfiguration": {
                                    "type": "object", "properties": {"level": _LEVEL}},
                                "properties": {"type": "object", "properties": {
                                    "tags": {"type": "array", "items": {"type": "string"}}}},
                            },
                        }},
                    },
                }}},
                "originalUriBaseIds": {"type": "object", "additionalProperties": {
                    "type": "object", "properties": {"uri": {"type": "string"}}}},
                "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                "invocations": {"type": "array", "items": {
                    "type": "object",
                    "required": ["executionSuccessful"],
                    "properties": {
                        "executionSuccessful": {"type": "boolean"},
                        "toolExecutionNotifications": {"type": "array", "items": {
                            "type": "object",
                            "required": ["message"],
                            "properties": {"message": _MESSAGE, "level": _LEVEL,
                                           "locations": {"type": "array",
                                                         "items": _LOCATION}},
                        }},
                    },
                }},
                "results": {"type": "array", "items": {
                    "type": "object",
                    "required": ["message"],
                    "additionalProperties": False,
                    "properties": {
                        "ruleId": {"type": "string"},
                        "ruleIndex": {"type": "integer", "minimum": 0},
                        "level": _LEVEL,
                        "message": _MESSAGE,
                        "locations": {"type": "array", "items": _LOCATION},
                        "properties": {"type": "object"},
                        "fixes": {"type": "array", "items": {
                            "type": "object",
                            "required": ["artifactChanges"],
                            "properties": {
                                "description": _MESSAGE,
                                "artifactChanges": {"type": "array", "minItems": 1, "items": {
                                    "type": "object",
                                    "required": ["artifactLocation", "replacements"],
                                    "properties": {
                                        "artifactLocation": _ARTIFACT,
                                        "replacements": {"type": "array", "minItems": 1,
                                                         "items": {
                                            "type": "object",
                                            "required": ["deletedRegion"],
                                            "properties": {
                                                "deletedRegion": _REGION,
                                                "insertedContent": {
                                                    "type": "object",
                                                    "properties": {"text": {"type": "string"}},
                                                },
                                            },
                                        }},
                                    },
                                }},
                            },
                        }},
                    },
                }},
            },
        }},
    },
}


def test_sarif_is_what_code_scanning_ingests(project, cli, tmp_path):
    (project / "src" / "broken.py").write_text(BROKEN)
    result = cli("check", "--output-format", "sarif", "train.py", "broken.py")
    assert result.exit_code == 1
    assert result.stderr == ""  # errors are in the document
    sarif = json.loads(result.stdout)
    jsonschema.validate(sarif, SARIF_SUBSET, format_checker=jsonschema.FormatChecker())
    (run,) = sarif["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [c.name for c in registry.all_codemods()]
    for rule in rules:
        assert rule["helpUri"] == registry.docs_url(rule["id"])
        assert len(rule["help"]["text"]) > len(rule["shortDescription"]["text"])
    results = run["results"]
    assert [(r["locations"][0]["physicalLocation"]["region"]["startLine"], r["ruleId"])
            for r in results] == [(line, name) for line, _col, name in ALL]
    for item in results:
        assert rules[item["ruleIndex"]]["id"] == item["ruleId"]
        artifact = item["locations"][0]["physicalLocation"]["artifactLocation"]
        # Relative to the repository root (where code scanning resolves it), not the cwd.
        assert artifact == {"uri": "src/train.py", "uriBaseId": "%SRCROOT%"}
    assert [r["level"] for r in results] == ["error", "warning", "warning", "error"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.resolve().as_uri() + "/"
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    (notification,) = invocation["toolExecutionNotifications"]
    assert notification["level"] == "error"
    assert notification["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == (
        "src/broken.py")
    # The fixes' replacements, each applied once, give what `apply` writes.
    edits = {
        (r["deletedRegion"]["startLine"], r["deletedRegion"]["startColumn"],
         r["deletedRegion"]["endLine"], r["deletedRegion"]["endColumn"],
         r["insertedContent"]["text"])
        for item in results for fix in item.get("fixes", [])
        for change in fix["artifactChanges"] for r in change["replacements"]
    }
    assert _apply_edits(SOURCE, edits) == _applied_text(tmp_path, project)
    # Each result's fix holds its own codemod's replacements only.
    texts = {
        item["ruleId"]: [r["insertedContent"]["text"] for fix in item["fixes"]
                         for change in fix["artifactChanges"] for r in change["replacements"]]
        for item in results if item.get("fixes")
    }
    assert texts["strict-load-state-dict"] == [", strict=True"]
    assert len(texts["atomic-save"]) > 1
    assert not any("strict" in text for text in texts["atomic-save"])


# -- CI systems -----------------------------------------------------------------------------


def _workflow_commands(text: str) -> list[tuple[str, dict[str, str], str]]:
    def unescape(value: str) -> str:
        return (value.replace("%2C", ",").replace("%3A", ":").replace("%0A", "\n")
                .replace("%0D", "\r").replace("%25", "%"))

    commands = []
    for line in text.splitlines():
        match = re.fullmatch(r"::(\w+) (.*?)::(.*)", line)
        assert match, line
        kind, properties, message = match.groups()
        fields = dict(item.split("=", 1) for item in properties.split(","))
        commands.append((kind, {k: unescape(v) for k, v in fields.items()}, unescape(message)))
    return commands


def test_github_annotations(project, cli):
    result = _check(cli, "--output-format", "github")
    assert result.exit_code == 1
    commands = _workflow_commands(result.stdout)
    assert [(kind, f["file"], int(f["line"]), int(f["col"])) for kind, f, _ in commands] == [
        ("error", "src/train.py", 5, 5), ("error", "src/train.py", 14, 5)]
    _kind, fields, message = commands[0]
    assert fields["title"] == "torchfix (strict-load-state-dict)"
    assert (int(fields["endLine"]), int(fields["endColumn"])) == (5, 32)
    assert message == "pass strict=True to make the checkpoint contract explicit"
    everything = _workflow_commands(_check(cli, "--output-format", "github",
                                           "--show-all").stdout)
    assert [kind for kind, _, _ in everything] == ["error", "warning", "warning", "error"]


def test_gitlab_code_quality(project, cli):
    issues = json.loads(_check(cli, "--output-format", "gitlab").stdout)
    assert [(i["location"]["path"], i["location"]["lines"]["begin"], i["check_name"])
            for i in issues] == [("src/train.py", line, name) for line, _c, name in ALL]
    for issue in issues:
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert issue["description"] and issue["fingerprint"]
    assert len({issue["fingerprint"] for issue in issues}) == len(issues)
    # A line added above moves the findings but keeps their fingerprints.
    (project / "src" / "train.py").write_text("# a comment\n" + SOURCE)
    moved = json.loads(_check(cli, "--output-format", "gitlab").stdout)
    assert [i["fingerprint"] for i in moved] == [i["fingerprint"] for i in issues]
    assert [i["location"]["lines"]["begin"] for i in moved] == [
        i["location"]["lines"]["begin"] + 1 for i in issues]


def test_junit_report(project, cli):
    (project / "src" / "broken.py").write_text(BROKEN)
    result = cli("check", "--output-format", "junit", "train.py", "broken.py")
    root = ElementTree.fromstring(result.stdout)
    assert root.tag == "testsuites"
    suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
    assert set(suites) == {"train.py", "broken.py"}
    failures = suites["train.py"].findall("testcase/failure")
    assert [f.get("type") for f in failures] == ["strict-load-state-dict", "atomic-save"]
    assert suites["broken.py"].find("testcase/error") is not None
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("3", "2", "1")

    os.remove(project / "src" / "broken.py")
    (project / "src" / "train.py").write_text("x = 1\n")
    clean = ElementTree.fromstring(_check(cli, "--output-format", "junit").stdout)
    assert (clean.get("tests"), clean.get("failures"), clean.get("errors")) == ("1", "0", "0")


def test_apply_refuses_check_only_formats(project, cli):
    result = cli("apply", "--output-format", "sarif", "train.py")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "torchfix: error: --output-format sarif is for `torchfix check`; this command prints "
        "full (text) or json"]
    assert (project / "src" / "train.py").read_text() == SOURCE


def test_ci_paths_are_relative_to_the_repository_outside_the_cwd(project, cli, monkeypatch):
    git("add", ".", cwd=project)
    monkeypatch.chdir(project)
    issues = json.loads(cli("check", "--output-format", "gitlab", "src").stdout)
    assert {issue["location"]["path"] for issue in issues} == {"src/train.py"}


@pytest.mark.parametrize("order", [("strict-load-state-dict", "atomic-save"),
                                   ("atomic-save", "strict-load-state-dict")])
def test_each_change_gets_only_its_own_codemods_edits_whatever_the_order(tmp_path, order):
    from torchfix.engine.process import process_source
    from torchfix.engine.results import EngineSettings
    from torchfix.output.fixes import attach, file_edits

    path = tmp_path / "train.py"
    path.write_text(SOURCE)
    result = process_source(SOURCE.encode(), path,
                            EngineSettings(codemods=order, produce_output=True))
    changes = [c for c in result.changes if c.applied]
    owned = attach(changes, file_edits(*result.rewrite(), result.encoding),
                   result.edited_lines)
    edits = {change.codemod: [e.content for e in found] for change, found in
             zip(changes, owned, strict=True)}
    assert edits["strict-load-state-dict"] == [", strict=True"]
    assert "_torchfix_atomic_save" in "".join(edits["atomic-save"])
    assert ", strict=True" not in edits["atomic-save"]



def test_an_inserted_helper_belongs_to_its_codemod_not_to_every_change():
    # torchdistill's main_util.py: difflib put the whole file's helper insertion at line
    # 14 (before the blank line), atomic-save's own diff at line 15 (after it); the
    # assert-to-raise changes far below must not carry the helper: applied alone, their
    # edits would add a function whose imports they do not add.
    from torchfix.output.fixes import Edit, attach
    from torchfix.rewrite.changes import Change, Safety

    def change(codemod: str, line: int) -> Change:
        return Change(codemod=codemod, line=line, column=5, message="m",
                      safety=Safety.UNSAFE, applied=True, end_line=line)

    changes = [change("assert-to-raise", 155), change("assert-to-raise", 159),
               change("atomic-save", 256)]
    helper = Edit("\n\ndef _torchfix_atomic_save(obj, f):\n    ...\n", 14, 1, 14, 1)
    imports = Edit("import shutil\n", 5, 1, 5, 1)
    edited_lines = [("assert-to-raise", 155, 155), ("assert-to-raise", 159, 159),
                    ("atomic-save", 5, 5), ("atomic-save", 15, 15), ("atomic-save", 256, 256)]
    owned = attach(changes, [imports, helper], edited_lines)
    assert owned == [(), (), (imports, helper)]


# Two shapes where the whole file's line diff mixes two fixes' edits (round 13): a
# multi-line assert whose last line the fix keeps, so the diff leaves the fix's tail on
# the line after it (mmocr's polygon_utils.py, where the tail went to every finding), and
# that same assert right before another, so the diff glues its tail to the next fix's
# edit (anomalib's prediction_merging.py).
SPLIT_TAIL = '''\
import numpy as np


def scale(polygon):
    assert len(polygon) % 2 == 0
    return polygon


def sort_points(points):
    assert isinstance(points, list) or isinstance(points, np.ndarray) \\
        or isinstance(points, tuple)
    return sorted(points)


def check(points):
    assert len(points) == 8
    return points
'''
GLUED_TAIL = '''\
def merge(predictions, tiles):
    assert isinstance(predictions, list) or isinstance(predictions, tuple) \\
        or isinstance(predictions, dict)
    assert (0, 0) in tiles.get(
        0,
    ), "at least one tile"
    return predictions
'''


@pytest.mark.parametrize("source", [SPLIT_TAIL, GLUED_TAIL], ids=["split", "glued"])
def test_each_fix_applied_alone_makes_only_its_own_change(cli, tmp_path, source):
    import ast

    (tmp_path / "shapes.py").write_text(source)
    findings = json.loads(cli("check", "--output-format", "json", "--unsafe-fixes",
                              "--no-cache", "--select", "assert-to-raise",
                              "shapes.py").stdout)["findings"]
    fixed = [finding for finding in findings if finding["fix"]]
    assert len(fixed) == source.count("assert ")
    lines = source.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)

    def offset(position: dict) -> int:
        return starts[position["line"] - 1] + position["column"] - 1

    for finding in fixed:
        text = source
        for edit in sorted(finding["fix"]["edits"], key=lambda e: offset(e["location"]),
                           reverse=True):
            start, end = offset(edit["location"]), offset(edit["end_location"])
            assert finding["line"] - 1 <= edit["location"]["line"] <= finding["end_line"] + 1
            text = text[:start] + edit["content"] + text[end:]
        ast.parse(text)  # applied alone, the fix gives valid Python
        # ... and turns exactly one assert into a raise.
        assert text.count("assert ") == source.count("assert ") - 1
        assert text.count("raise ") == 1
