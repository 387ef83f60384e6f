"""Huge files never hold up a run: work per file is linear in its size."""

from __future__ import annotations

import json
import sys

from torchfix import engine
from torchfix.codemod import Change, Safety


def _mapping_work(lines: int) -> int:
    """Python lines executed to map one position back through an earlier codemod's edits,
    on the file of the issue: the same call and the same list over and over, every call
    rewritten by an earlier codemod."""
    before = "".join("model.load_state_dict(sd)\n" if n % 3 else "values = [1, 2, 3]\n"
                     for n in range(lines))
    after = "import torch\n" + before.replace("(sd)", "(sd, strict=True)")
    last_list = 3 * ((lines - 1) // 3) + 1  # the line of the last (unchanged) list
    changes = [Change("atomic-save", last_list + 1, 1, "save atomically", Safety.SAFE, True)]
    executed = 0

    def count(frame, event, arg):
        nonlocal executed
        executed += event == "line"
        return count

    previous = sys.gettrace()
    sys.settrace(count)
    try:
        (mapped,) = engine._map_lines(changes, before, after)
    finally:
        sys.settrace(previous)
    assert mapped.line == last_list  # its line in the file as read
    return executed


def test_mapping_positions_through_earlier_edits_is_linear_in_the_lines():
    # difflib compared every pair of equal lines: 4x the lines took 16x the work.
    small, large = _mapping_work(600), _mapping_work(2_400)
    assert large <= 4.5 * small


def test_positions_of_chained_codemods_match_check_on_repetitive_code(tmp_path, cli):
    source = (
        "import torch\n\nscaler = torch.cuda.amp.GradScaler()\n\n"
        + "model.load_state_dict(sd)\nmodel.load_state_dict(sd)\nvalues = [1, 2, 3]\n" * 150
        + "torch.save(model, path)\n"
    )
    (tmp_path / "big.py").write_text(source)
    checked = json.loads(cli("check", "--format", "json", "--no-cache", ".").stdout)
    applied = json.loads(cli("apply", "--dry-run", "--format", "json", "--no-cache",
                             ".").stdout)
    assert len(applied["findings"]) > 300
    assert applied["findings"] == checked["findings"]
