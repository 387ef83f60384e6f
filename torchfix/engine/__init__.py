"""Running codemods over files: configuration, discovery, the process pool, the result
cache, the per-file engine and writing files."""
