# golden-args: --unsafe-fixes
"""A message that says the state cannot be reached names an invariant, not bad input."""


def convert_tree(node, parent_label: str):
    if node.children:
        return [convert_tree(child, node.label) for child in node.children]
    assert parent_label != "leaf", "Should never reach a leaf from here"
    assert node.kind in ("word", "punct"), "shouldn't get here: the reader tags every node"
    return node.label


def walk(state, depth: int):
    assert depth >= 0, "a negative depth is never reached: the caller counts up"
    return state
