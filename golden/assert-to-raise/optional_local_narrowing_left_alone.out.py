# golden-args: --unsafe-fixes
# torchdcm (round 49): `assert ids is not None` on a local the function annotates as
# optional tells the type checker what the `if key:` around it ensures already; a raise
# would be dead code that reads as an input error. Left alone. A check of a
# parameter, with a message for the caller, is an input check: converted.
def build(rows, key=None):
    ids: list | None = [] if key else None
    for row in rows:
        if key:
            assert ids is not None
            ids.append(row[key])
    return ids


def lookup(table, name: str | None = None):
    if name is None:
        raise ValueError("a name is required")
    return table[name]
