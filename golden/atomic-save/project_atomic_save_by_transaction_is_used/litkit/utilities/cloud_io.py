# lightning (round 30) commits its checkpoints with its own `_atomic_save`: a buffer
# written in an fsspec transaction, no rename. A save elsewhere is reported with its name
# (a second helper beside it is no fix a maintainer takes).
import io

import fsspec
import torch


def _atomic_save(checkpoint, filepath):
    bytesbuffer = io.BytesIO()
    torch.save(checkpoint, bytesbuffer)
    fs, urlpath = fsspec.core.url_to_fs(str(filepath))
    with fs.transaction, fs.open(urlpath, "wb") as f:
        f.write(bytesbuffer.getvalue())
