"""The migration catalogue, held to the installed torch (2.13.0 in the test extra).

Every replacement the catalogue writes must exist, reachable the way a fix spells it; every
name it targets must warn, be gone (or a stub that raises), say so in its docstring, or
be the very object its replacement is, as its row's `verify` says. A row that cannot be
checked here says why, and the reason is shown as a skip: nothing is passed over silently.
The checks run in one fresh interpreter, so warnings torch gives once per process are
seen whatever other tests ran first.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from codemods.deprecations.catalogue import PATH, entries
from torchfix.rewrite import registry

ROWS = entries()

_PROBE = textwrap.dedent('''
    import importlib, json, sys, tomllib, warnings

    import torch
    import torch.distributed.checkpoint  # the catalogue's own `import` rows need these
    try:
        import functorch
    except ImportError:
        functorch = None

    def resolve(name):
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                value = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for part in parts[cut:]:
                value = getattr(value, part)
            return value
        raise ImportError(name)

    WORDS = ("deprecat", "renamed", "will be removed", "moved")
    results = {}
    for row in tomllib.load(open(sys.argv[1], "rb"))["symbol"]:
        name, verify = row["name"], row["verify"]
        result = {"replacement": None, "verify": None}
        if row.get("replacement"):
            try:
                resolve(row["replacement"])
                result["replacement"] = "ok"
            except (ImportError, AttributeError) as exc:
                result["replacement"] = f"missing: {exc!r}"
        namespace = {"torch": torch, "functorch": functorch}
        try:
            if verify == "warns":
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    try:
                        exec(row["probe"], namespace)
                    except Exception:
                        pass  # a probe may fail after the warning (no process group, ...)
                texts = [str(w.message).lower() for w in caught]
                ok = any(word in text for text in texts for word in WORDS)
                result["verify"] = "ok" if ok else f"no deprecation warning: {texts}"
            elif verify == "raises":
                try:
                    exec(row["probe"], namespace)
                    result["verify"] = "did not raise"
                except Exception as exc:
                    ok = "removed" in str(exc)
                    result["verify"] = "ok" if ok else f"raised without saying removed: {exc}"
            elif verify == "gone":
                try:
                    resolve(name)
                    result["verify"] = "still exists"
                except (ImportError, AttributeError):
                    result["verify"] = "ok"
            elif verify == "doc":
                doc = (resolve(name).__doc__ or "").lower()
                result["verify"] = "ok" if "deprecated" in doc else "docstring says nothing"
            elif verify == "alias":
                if row.get("names"):
                    old, new = importlib.import_module(name), resolve(row["replacement"])
                    differ = [n for n in row["names"] if getattr(old, n) is not getattr(new, n)]
                else:
                    differ = [] if resolve(name) is resolve(row["replacement"]) else [name]
                result["verify"] = "ok" if not differ else f"not the same object: {differ}"
            elif verify.startswith("unchecked:"):
                if row.get("probe"):
                    exec(row["probe"], namespace)
                result["verify"] = "unchecked"
            else:
                result["verify"] = f"unknown verify {verify!r}"
        except Exception as exc:
            result["verify"] = f"{type(exc).__name__}: {exc}"
        results[name] = result
    print(json.dumps(results))
''')

# Without `import`, a fix writes the replacement as an attribute of what the file already
# imports (`torch.linalg.cholesky` after `import torch`): that must work in a fresh process.
_REACHABLE = textwrap.dedent('''
    import json, sys, tomllib
    import torch
    missing = []
    for row in tomllib.load(open(sys.argv[1], "rb"))["symbol"]:
        new = row.get("replacement")
        if not new or row.get("import") or row.get("fix") in (None, "report", "module"):
            continue
        if not new.startswith("torch."):
            continue
        value = torch
        try:
            for part in new.split(".")[1:]:
                value = getattr(value, part)
        except AttributeError:
            missing.append(new)
    print(json.dumps(missing))
''')


def _run(script: str) -> object:
    done = subprocess.run([sys.executable, "-W", "ignore::UserWarning", "-c", script, str(PATH)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def results() -> dict[str, dict[str, str]]:
    return _run(_PROBE)  # type: ignore[return-value]


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_row_holds_for_the_installed_torch(row, results):
    result = results[row.name]
    if row.replacement:
        assert result["replacement"] == "ok", f"{row.replacement}: {result['replacement']}"
    if row.verify.startswith("unchecked:"):
        reason = row.verify.removeprefix("unchecked:").strip()
        assert reason, "an unchecked row must say why"
        assert result["verify"] == "unchecked", result["verify"]
        pytest.skip(f"{row.name}: {reason}")
    assert result["verify"] == "ok", f"{row.name} ({row.verify}): {result['verify']}"


def test_replacements_are_reachable_from_import_torch():
    assert _run(_REACHABLE) == []


def test_rows_are_complete():
    names = [row.name for row in ROWS]
    assert len(names) == len(set(names)), "a name appears twice"
    known = set(registry.by_name())
    for row in ROWS:
        assert row.verify, f"{row.name}: no verify"
        assert row.verify in ("warns", "raises", "gone", "doc", "alias") or \
            row.verify.startswith("unchecked:"), row.name
        if row.verify in ("warns", "raises"):
            assert row.probe, f"{row.name}: verify = {row.verify} needs a probe"
        if row.replacement:
            assert row.since is not None, f"{row.name}: the replacement's torch version"
        if row.handled_by is not None:
            assert row.handled_by in known, f"{row.name}: no codemod {row.handled_by}"
        if row.fix == "module":
            assert row.names and row.imports, row.name


def test_every_name_a_migration_codemod_targets_is_a_row():
    from codemods.migrations import autocast_device, dcp_save_load, sdpa_kernel

    handled = {row.name: row.handled_by for row in ROWS}
    targets = {
        "autocast-device": set(autocast_device.RENAMES),
        "dcp-save-load": {f"{dcp_save_load.MODULE}.{name}" for name in dcp_save_load.FUNCTIONS},
        "sdpa-kernel": {sdpa_kernel.OLD},
    }
    for codemod, names in targets.items():
        for name in sorted(names):
            assert handled.get(name) == codemod, f"{name} ({codemod}) is not in the catalogue"


def test_the_readme_shows_the_whole_catalogue():
    from pathlib import Path

    from codemods.deprecations.catalogue import markdown

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    assert markdown() in readme, "run `python -m codemods.deprecations.catalogue` for README"
