"""`# torchfix: ignore` and `# torchfix: ignore[name, ...]`."""

from __future__ import annotations

from torchfix.rewrite.suppressions import ALL, find_suppressions

SOURCE = '''\
def resume(model, ckpt):
    model.load_state_dict(ckpt)  # torchfix: ignore
    model.load_state_dict(ckpt)  # torchfix: ignore[strict-load-state-dict]
    model.load_state_dict(ckpt)  # torchfix: ignore[assert-to-raise, amp-api]
    model.load_state_dict(
        ckpt,
    )  # torchfix: ignore
    text = "# torchfix: ignore"
    model.load_state_dict(ckpt)
'''


def test_comments_are_read_per_line_and_strings_are_not_comments():
    found = find_suppressions(SOURCE)
    assert found.by_line[2] is ALL
    assert found.by_line[3] == {"strict-load-state-dict"}
    assert found.by_line[4] == {"assert-to-raise", "amp-api"}
    assert 8 not in found.by_line


def test_a_suppression_on_the_first_or_last_line_of_the_change_applies():
    found = find_suppressions(SOURCE)
    assert found.suppresses("strict-load-state-dict", 2, 2)
    assert found.suppresses("strict-load-state-dict", 3, 3)
    assert not found.suppresses("strict-load-state-dict", 4, 4)
    assert found.suppresses("strict-load-state-dict", 5, 7)
    assert not found.suppresses("strict-load-state-dict", 9, 9)


def test_suppressed_lines_are_neither_fixed_nor_reported(tmp_path, cli):
    # One line more than SOURCE: the import that makes the receiver known to be a module.
    source = "import torch\n" + SOURCE.replace("(model, ckpt)", "(model: torch.nn.Module, ckpt)")
    (tmp_path / "train.py").write_text(source)
    result = cli("check", ".")
    lines = result.stdout.splitlines()
    assert [line.split(":")[1] for line in lines] == ["5", "10"]
    cli("apply", ".")
    fixed = (tmp_path / "train.py").read_text().splitlines()
    assert fixed[2] == "    model.load_state_dict(ckpt)  # torchfix: ignore"
    assert fixed[4].endswith("strict=True)  # torchfix: ignore[assert-to-raise, amp-api]")
    assert fixed[9] == "    model.load_state_dict(ckpt, strict=True)"


TYPO = '''\
import torch
def resume(model: torch.nn.Module, ckpt):
    model.load_state_dict(ckpt)  # torchfix: ignore[strict-load-state-dcit]
    model.load_state_dict(ckpt, strict=True)  # torchfix: ignore[no-such-rule, amp-api]
'''


def test_unknown_names_in_suppression_comments_are_reported_as_warnings(tmp_path, cli):
    import json

    (tmp_path / "train.py").write_text(TYPO)
    (tmp_path / "clean.py").write_text("x = 1  # torchfix: ignore[typo]\n")  # no codemod reads it
    result = cli("check", ".")
    warnings = [line for line in result.stderr.splitlines() if ": warning: " in line]
    assert warnings == [
        "clean.py:1:8: warning: unknown codemod 'typo' in a `# torchfix: ignore` comment",
        "train.py:3:34: warning: unknown codemod 'strict-load-state-dcit' in a "
        "`# torchfix: ignore` comment; did you mean 'strict-load-state-dict'?",
        "train.py:4:47: warning: unknown codemod 'no-such-rule' in a `# torchfix: ignore` "
        "comment",
    ]
    # The misspelt comment suppresses nothing, and a warning never fails the run by itself.
    assert result.exit_code == 1
    assert result.stdout.startswith("train.py:3:5 strict-load-state-dict")
    (tmp_path / "train.py").write_text(TYPO.replace("(ckpt)  #", "(ckpt, strict=True)  #"))
    assert cli("check", ".").exit_code == 0

    assert ": warning: " not in cli("check", "--quiet", ".").stderr
    document = json.loads(cli("check", "--output-format", "json", ".").stdout)
    assert [(w["path"], w["line"]) for w in document["warnings"]] == [
        ("clean.py", 1), ("train.py", 3), ("train.py", 4)]
    github = cli("check", "--output-format", "github", ".").stdout.splitlines()
    assert sum(line.startswith("::warning file=train.py,line=3,") for line in github) == 1


def test_known_names_come_from_the_registry():
    from torchfix.rewrite import registry

    names = {c.name for c in registry.all_codemods()}
    codes = {code for c in registry.all_codemods() for code in registry.codes_of(c)}
    known = registry.known_names()
    assert names | codes <= known
    # Beyond them only prefixes of codes (`TOR1` stands for the TOR1xx rules).
    assert all(any(code.startswith(name) for code in codes) for name in known - names)
