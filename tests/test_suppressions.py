"""`# torchfix: ignore` and `# torchfix: ignore[name, ...]`."""

from __future__ import annotations

from torchfix.suppressions import ALL, find_suppressions

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
