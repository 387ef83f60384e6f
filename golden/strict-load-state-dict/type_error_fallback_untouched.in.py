# golden-args: --unsafe-fixes
# The `except TypeError` fallback exists for receivers whose load_state_dict takes no
# `strict`: adding it there makes the fallback fail the same way.


def restore(obj, state):
    try:
        obj.load_state_dict(state, strict=True)
    except TypeError:
        obj.load_state_dict(state)
