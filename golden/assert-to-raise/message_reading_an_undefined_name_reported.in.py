# torchgeometry (round 30): the message names `pinhole`, but the parameter is
# `pinhole_i`; a failing check raises NameError, and a raise would copy the bug. Reported.
def homography_i_H_ref(pinhole_i, pinhole_ref):
    assert len(pinhole_i.shape) == 2 and pinhole_i.shape[1] == 12, pinhole.shape
    assert len(pinhole_ref.shape) == 2, pinhole_ref.shape
    return pinhole_i, pinhole_ref
