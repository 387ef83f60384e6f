"""Making changes: the codemod contract, libcst editing, suppressions."""
