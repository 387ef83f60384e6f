"""The manifest the engine reads instead of importing codemods says what the classes say."""

from __future__ import annotations

from torchfix.rewrite import manifest, registry


def test_the_manifest_says_what_the_codemod_classes_say() -> None:
    written = manifest.manifest_path().read_text(encoding="utf-8")
    assert written == manifest.render(), "stale: run `python -m torchfix.rewrite.manifest`"


def test_entries_load_the_classes_they_name() -> None:
    for entry in registry.entries():
        codemod = entry.load()
        assert (codemod.name, tuple(codemod.triggers), codemod.codes,
                codemod.enabled_by_default) == (entry.name, entry.triggers, entry.codes,
                                                entry.enabled_by_default)
