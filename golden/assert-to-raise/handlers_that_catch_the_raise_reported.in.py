import torch


def element_z(element: torch.Tensor):
    # the handler turns anything raised into its own error: a ValueError would be lost
    try:
        assert element.numel() == 1
    except:  # noqa: E722
        raise AssertionError("Only 1 element Tensor Allowed.")
    return element


def parse_count(text: str, limit: int):
    # the handler catches the new ValueError itself and falls back
    try:
        assert limit > 0, "limit must be positive"
        return min(int(text), limit)
    except ValueError:
        return limit


def lookup(table: dict, key: str, size: int):
    # a handler of another exception: the new ValueError goes through
    try:
        assert size > 0, "size must be positive"
        return table[key][:size]
    except KeyError:
        return None


def load(path: str, retries: int):
    # a broad handler that raises the caught exception again: it goes through
    try:
        assert retries >= 0, "retries must be non-negative"
        return open(path).read()
    except Exception as error:
        print(path)
        raise error
