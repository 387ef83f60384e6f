"""Which lines of one version of a file are which lines of another, in linear time.

`apply` chains codemods: a later codemod reports positions in the text the earlier ones
produced, and the engine maps them back to the file as read. `difflib.SequenceMatcher`
does that well on ordinary code but is quadratic on repeated lines (30,000 identical
`model.load_state_dict(sd)` lines took minutes), so the alignment is built here instead:

1. the common prefix and suffix are equal;
2. in between, lines that occur exactly once in each version anchor the alignment (the
   longest increasing chain of them, as patience diff does);
3. between two anchors, a short stretch goes to difflib (same answers as before on
   ordinary code), a long one to a greedy walk that resynchronises on the nearest equal
   pair of lines within a window.

Every step is linear in the number of lines (the chain of anchors is O(n log n)), and the
result has the shape of `SequenceMatcher.get_opcodes()`.
"""

from __future__ import annotations

import bisect
import difflib
from collections import Counter
from collections.abc import Sequence

Opcode = tuple[str, int, int, int, int]  # tag, i1, i2, j1, j2: as difflib's get_opcodes
_Block = tuple[int, int, int]  # (i, j, size): a[i:i+size] == b[j:j+size]

# Stretches between anchors up to this many line pairs go to difflib: its cost there is
# bounded and its answers on ordinary code are the ones users are used to.
DIFFLIB_MAX_PAIRS = 4096
# How far the greedy walk looks ahead, in each version, for the next pair of equal lines.
WINDOW = 32


def opcodes(a: Sequence[str], b: Sequence[str]) -> list[Opcode]:
    """How to turn `a` into `b`, as equal/replace/insert/delete ranges of lines."""
    n, m = len(a), len(b)
    prefix = 0
    while prefix < n and prefix < m and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < n - prefix and suffix < m - prefix and a[n - 1 - suffix] == b[m - 1 - suffix]:
        suffix += 1
    blocks: list[_Block] = [(0, 0, prefix)]
    blocks += _middle(a, b, prefix, n - suffix, prefix, m - suffix)
    blocks.append((n - suffix, m - suffix, suffix))
    return _to_opcodes(blocks, n, m)


def _middle(a: Sequence[str], b: Sequence[str], a_lo: int, a_hi: int, b_lo: int,
            b_hi: int) -> list[_Block]:
    if a_lo >= a_hi or b_lo >= b_hi:
        return []
    blocks: list[_Block] = []
    i, j = a_lo, b_lo
    for anchor_i, anchor_j in [*_anchors(a, b, a_lo, a_hi, b_lo, b_hi), (a_hi, b_hi)]:
        blocks += _stretch(a, b, i, anchor_i, j, anchor_j)
        if anchor_i < a_hi:
            blocks.append((anchor_i, anchor_j, 1))
        i, j = anchor_i + 1, anchor_j + 1
    return blocks


def _anchors(a: Sequence[str], b: Sequence[str], a_lo: int, a_hi: int, b_lo: int,
             b_hi: int) -> list[tuple[int, int]]:
    """Pairs of lines unique in both ranges, the longest chain increasing in both."""
    count_a = Counter(a[a_lo:a_hi])
    count_b = Counter(b[b_lo:b_hi])
    where_b = {b[j]: j for j in range(b_lo, b_hi) if count_b[b[j]] == 1}
    pairs = [(i, where_b[a[i]]) for i in range(a_lo, a_hi)
             if count_a[a[i]] == 1 and a[i] in where_b]
    return _longest_increasing(pairs)


def _longest_increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of `pairs` (increasing in i) also increasing in j."""
    tails: list[int] = []  # tails[k]: smallest j ending a chain of length k + 1
    tail_index: list[int] = []
    previous: list[int] = []
    for index, (_i, j) in enumerate(pairs):
        k = bisect.bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_index.append(index)
        else:
            tails[k] = j
            tail_index[k] = index
        previous.append(tail_index[k - 1] if k else -1)
    chain: list[tuple[int, int]] = []
    index = tail_index[-1] if tail_index else -1
    while index >= 0:
        chain.append(pairs[index])
        index = previous[index]
    chain.reverse()
    return chain


def _stretch(a: Sequence[str], b: Sequence[str], a_lo: int, a_hi: int, b_lo: int,
             b_hi: int) -> list[_Block]:
    # Equal lines right after an anchor extend it, as difflib's longest match would.
    start_i, start_j = a_lo, b_lo
    while a_lo < a_hi and b_lo < b_hi and a[a_lo] == b[b_lo]:
        a_lo, b_lo = a_lo + 1, b_lo + 1
    extended = [(start_i, start_j, a_lo - start_i)] if a_lo > start_i else []
    if a_lo >= a_hi or b_lo >= b_hi:
        return extended
    if (a_hi - a_lo) * (b_hi - b_lo) <= DIFFLIB_MAX_PAIRS:
        matcher = difflib.SequenceMatcher(None, a[a_lo:a_hi], b[b_lo:b_hi], autojunk=False)
        return extended + [(a_lo + i, b_lo + j, size)
                           for i, j, size in matcher.get_matching_blocks() if size]
    return extended + _greedy(a, b, a_lo, a_hi, b_lo, b_hi)


def _greedy(a: Sequence[str], b: Sequence[str], a_lo: int, a_hi: int, b_lo: int,
            b_hi: int) -> list[_Block]:
    """Walk both ranges: equal lines match; at a difference, skip to the nearest equal pair
    (smallest total skip) within WINDOW lines of each, or past a window of both."""
    blocks: list[_Block] = []
    i, j = a_lo, b_lo
    while i < a_hi and j < b_hi:
        if a[i] == b[j]:
            start_i, start_j = i, j
            while i < a_hi and j < b_hi and a[i] == b[j]:
                i, j = i + 1, j + 1
            blocks.append((start_i, start_j, i - start_i))
            continue
        first_in_b: dict[str, int] = {}
        for y in range(min(WINDOW, b_hi - j)):
            first_in_b.setdefault(b[j + y], y)
        best: tuple[int, int] | None = None
        for x in range(min(WINDOW, a_hi - i)):
            y = first_in_b.get(a[i + x])
            if y is not None and (best is None or x + y < sum(best)):
                best = (x, y)
        if best is None:
            i, j = min(i + WINDOW, a_hi), min(j + WINDOW, b_hi)
        else:
            i, j = i + best[0], j + best[1]
    return blocks


def _to_opcodes(blocks: list[_Block], n: int, m: int) -> list[Opcode]:
    """difflib's get_opcodes, from matching blocks in increasing order."""
    result: list[Opcode] = []
    i = j = 0
    for block_i, block_j, size in [*blocks, (n, m, 0)]:
        if not size and (block_i, block_j) != (n, m):
            continue
        if i < block_i and j < block_j:
            result.append(("replace", i, block_i, j, block_j))
        elif i < block_i:
            result.append(("delete", i, block_i, j, block_j))
        elif j < block_j:
            result.append(("insert", i, block_i, j, block_j))
        if size:
            if result and result[-1][0] == "equal":
                tag, i1, _i2, j1, _j2 = result.pop()
                result.append((tag, i1, block_i + size, j1, block_j + size))
            else:
                result.append(("equal", block_i, block_i + size, block_j, block_j + size))
        i, j = block_i + size, block_j + size
    return result
