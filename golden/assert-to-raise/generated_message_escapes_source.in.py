def resolve_checkpoint(path, sep, template, tag):
    assert sep not in ("\\", "/")
    assert template != "{step}.pt"
    assert tag != 'it\'s "best"'
    assert path.endswith('.pt') or path.endswith(".safetensors")
    return path.replace(sep, "_").format(step=0)
