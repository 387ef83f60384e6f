from .exceptions import ExportInvalidArgument, ExportNotImplemented


def export_op(name: str, inputs: list, axis: int = 0, *, target: str = "nnef"):
    # the library raises its own classes: a ValueError here would break its convention
    assert axis >= 0, "axis must be non-negative"
    if target not in ("nnef", "tract"):
        raise ExportInvalidArgument(f"unknown target {target!r}")
    return _EMITTERS[name](inputs, axis)


_EMITTERS = {}

def _emit_0(inputs, axis):
    if len(inputs) != 1:
        raise ExportNotImplemented("op 0 takes 1 inputs")
    return ("op0", inputs, axis)


def _emit_1(inputs, axis):
    if len(inputs) != 2:
        raise ExportNotImplemented("op 1 takes 2 inputs")
    return ("op1", inputs, axis)


def _emit_2(inputs, axis):
    if len(inputs) != 3:
        raise ExportNotImplemented("op 2 takes 3 inputs")
    return ("op2", inputs, axis)


def _emit_3(inputs, axis):
    if len(inputs) != 1:
        raise ExportNotImplemented("op 3 takes 1 inputs")
    return ("op3", inputs, axis)


def _emit_4(inputs, axis):
    if len(inputs) != 2:
        raise ExportNotImplemented("op 4 takes 2 inputs")
    return ("op4", inputs, axis)


def _emit_5(inputs, axis):
    if len(inputs) != 3:
        raise ExportNotImplemented("op 5 takes 3 inputs")
    return ("op5", inputs, axis)


def _emit_6(inputs, axis):
    if len(inputs) != 1:
        raise ExportNotImplemented("op 6 takes 1 inputs")
    return ("op6", inputs, axis)


def _emit_7(inputs, axis):
    if len(inputs) != 2:
        raise ExportNotImplemented("op 7 takes 2 inputs")
    return ("op7", inputs, axis)


def _emit_8(inputs, axis):
    if len(inputs) != 3:
        raise ExportNotImplemented("op 8 takes 3 inputs")
    return ("op8", inputs, axis)


def _emit_9(inputs, axis):
    if len(inputs) != 1:
        raise ExportNotImplemented("op 9 takes 1 inputs")
    return ("op9", inputs, axis)


def _emit_10(inputs, axis):
    if len(inputs) != 2:
        raise ExportNotImplemented("op 10 takes 2 inputs")
    return ("op10", inputs, axis)


def _emit_11(inputs, axis):
    if len(inputs) != 3:
        raise ExportNotImplemented("op 11 takes 3 inputs")
    return ("op11", inputs, axis)


def _emit_12(inputs, axis):
    if len(inputs) != 1:
        raise ExportNotImplemented("op 12 takes 1 inputs")
    return ("op12", inputs, axis)


def _emit_13(inputs, axis):
    if len(inputs) != 2:
        raise ExportNotImplemented("op 13 takes 2 inputs")
    return ("op13", inputs, axis)


def _emit_14(inputs, axis):
    if len(inputs) != 3:
        raise ExportNotImplemented("op 14 takes 3 inputs")
    return ("op14", inputs, axis)


def _emit_15(inputs, axis):
    if len(inputs) != 1:
        raise ExportNotImplemented("op 15 takes 1 inputs")
    return ("op15", inputs, axis)


def _emit_16(inputs, axis):
    if len(inputs) != 2:
        raise ExportNotImplemented("op 16 takes 2 inputs")
    return ("op16", inputs, axis)


def _emit_17(inputs, axis):
    if len(inputs) != 3:
        raise ExportNotImplemented("op 17 takes 3 inputs")
    return ("op17", inputs, axis)


def _emit_18(inputs, axis):
    if len(inputs) != 1:
        raise ExportNotImplemented("op 18 takes 1 inputs")
    return ("op18", inputs, axis)


def _emit_19(inputs, axis):
    if len(inputs) != 2:
        raise ExportNotImplemented("op 19 takes 2 inputs")
    return ("op19", inputs, axis)


_EMITTERS.update({f"op{i}": globals()[f"_emit_{i}"] for i in range(20)})
