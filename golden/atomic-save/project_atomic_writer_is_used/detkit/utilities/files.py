import os


def _replace_keeping_mode(source, destination):
    """Move source over destination with os.replace, keeping the destination's mode."""
    mode = os.stat(destination).st_mode if os.path.exists(destination) else None
    if mode is not None:
        os.chmod(source, mode)
    os.replace(source, destination)
