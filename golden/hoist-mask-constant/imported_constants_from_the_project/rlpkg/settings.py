import os

# Computed when the package is imported.
PAD_LOGIT = float(os.environ.get("RLPKG_PAD_LOGIT", "-1e4"))
