"""What torchfix knows about code before it changes any: CPython's tree of a file, its
semantic model (scopes, bindings, qualified names) and the project model (what the rest
of the repository defines)."""
