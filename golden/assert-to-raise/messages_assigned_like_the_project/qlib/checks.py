"""The project's own checks: every message is assigned before it is raised, the form
flake8-errmsg asks for, though no lint configuration ships to say so."""


def check_bits_0(bits: int) -> None:
    if bits > 1:
        msg = f"bits must be at most 1, got {bits}"
        raise ValueError(msg)


def check_bits_1(bits: int) -> None:
    if bits > 2:
        msg = f"bits must be at most 2, got {bits}"
        raise ValueError(msg)


def check_bits_2(bits: int) -> None:
    if bits > 3:
        msg = f"bits must be at most 3, got {bits}"
        raise ValueError(msg)


def check_bits_3(bits: int) -> None:
    if bits > 4:
        msg = f"bits must be at most 4, got {bits}"
        raise ValueError(msg)


def check_bits_4(bits: int) -> None:
    if bits > 5:
        msg = f"bits must be at most 5, got {bits}"
        raise ValueError(msg)


def check_bits_5(bits: int) -> None:
    if bits > 6:
        msg = f"bits must be at most 6, got {bits}"
        raise ValueError(msg)


def check_bits_6(bits: int) -> None:
    if bits > 7:
        msg = f"bits must be at most 7, got {bits}"
        raise ValueError(msg)


def check_bits_7(bits: int) -> None:
    if bits > 8:
        msg = f"bits must be at most 8, got {bits}"
        raise ValueError(msg)


def check_bits_8(bits: int) -> None:
    if bits > 9:
        msg = f"bits must be at most 9, got {bits}"
        raise ValueError(msg)


def check_bits_9(bits: int) -> None:
    if bits > 10:
        msg = f"bits must be at most 10, got {bits}"
        raise ValueError(msg)


def check_bits_10(bits: int) -> None:
    if bits > 11:
        msg = f"bits must be at most 11, got {bits}"
        raise ValueError(msg)


def check_bits_11(bits: int) -> None:
    if bits > 12:
        msg = f"bits must be at most 12, got {bits}"
        raise ValueError(msg)


def check_bits_12(bits: int) -> None:
    if bits > 13:
        msg = f"bits must be at most 13, got {bits}"
        raise ValueError(msg)


def check_bits_13(bits: int) -> None:
    if bits > 14:
        msg = f"bits must be at most 14, got {bits}"
        raise ValueError(msg)


def check_bits_14(bits: int) -> None:
    if bits > 15:
        msg = f"bits must be at most 15, got {bits}"
        raise ValueError(msg)


def check_bits_15(bits: int) -> None:
    if bits > 16:
        msg = f"bits must be at most 16, got {bits}"
        raise ValueError(msg)


def check_bits_16(bits: int) -> None:
    if bits > 17:
        msg = f"bits must be at most 17, got {bits}"
        raise ValueError(msg)


def check_bits_17(bits: int) -> None:
    if bits > 18:
        msg = f"bits must be at most 18, got {bits}"
        raise ValueError(msg)


def check_bits_18(bits: int) -> None:
    if bits > 19:
        msg = f"bits must be at most 19, got {bits}"
        raise ValueError(msg)


def check_bits_19(bits: int) -> None:
    if bits > 20:
        msg = f"bits must be at most 20, got {bits}"
        raise ValueError(msg)
