# golden-args: --unsafe-fixes
# bio-embeddings (round 29): a comment above the assert says the case cannot arise, so it
# states an internal invariant, not a check of what a caller passed. Left alone.
DEFAULTS = {"bert": {"model_directory": "https://example.org/bert.zip"}}


def get_model_directories_from_zip(model, directory):
    url = DEFAULTS.get(model, {}).get(directory)
    # Since the directory are not user provided, this must never happen
    assert url, f"Directory {directory} for {model} doesn't exist."
    return url
