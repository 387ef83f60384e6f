def resolve_checkpoint(path, sep, template, tag):
    if sep in ("\\", "/"):
        raise ValueError('expected sep not in ("\\\\", "/")')
    if template == "{step}.pt":
        raise ValueError('expected template != "{step}.pt"')
    if tag == 'it\'s "best"':
        raise ValueError("expected tag != 'it\\'s \"best\"'")
    if not (path.endswith('.pt') or path.endswith(".safetensors")):
        raise ValueError(
            "expected path.endswith('.pt') or path.endswith(\".safetensors\")"
        )
    return path.replace(sep, "_").format(step=0)
