import io
import zipfile
from typing import BinaryIO

import torch


def state_to_bytes(state):
    buffer = io.BytesIO()
    torch.save(state, buffer)
    return buffer.getvalue()


def write_bundle(bundle_path, model):
    with zipfile.ZipFile(bundle_path, "w") as bundle:
        with bundle.open("weights.pt", "w") as member:
            torch.save(model.state_dict(), member)


def write_to(state, fh):
    torch.save(state, fh)


def dump(state, out: BinaryIO) -> None:
    torch.save(state, out)


def upload(state, client, key):
    with io.BytesIO() as f:
        torch.save(state, f)
        client.put_object(key, f.getvalue())


def save_opened(state, path):
    with open(path, "wb") as f:
        torch.save(state, f)
    torch.save(state, open(path + ".bak", "wb"))


def persist(state, f):
    if isinstance(f, str):
        with open(f, "wb") as handle:
            return persist(state, handle)
    torch.save(state, f)  # only file objects get here


def save_through_writer(state, path, factory):
    torch.save(state, factory.create_writer(path))


def serialize_extra_state(state, new_format: bool):
    if new_format:
        state_serialized = torch.frombuffer(bytearray(b"state"), dtype=torch.uint8)
    else:
        state_serialized = io.BytesIO()
        torch.save(state, state_serialized)  # a buffer here, whatever the other branch holds
    return state_serialized
