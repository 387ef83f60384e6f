"""Git-ready output: diffs, patches, commits, batch migrations, run records and undo."""
