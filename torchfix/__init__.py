"""torchfix: safe, idempotent codemods for PyTorch code."""

__version__ = "0.1.0"

# The one home of the project on the web: pyproject.toml's URLs, the documentation links
# in every output format and the GitHub Action all name it (a test holds them to it).
PROJECT_URL = "https://github.com/torchfix/torchfix"
