# torchgeometry (round 30): the message names `pinhole`, but the parameter is
# `pinhole_i`; a failing check raises NameError, and a raise would copy the bug. Reported.
# So is a check that reads a name nothing around it defines, copied from a function where
# it is a local (torchir, round 50: `shape`): it raises NameError whenever it runs.
def homography_i_H_ref(pinhole_i, pinhole_ref):
    assert len(pinhole_i.shape) == 2 and pinhole_i.shape[1] == 12, pinhole.shape
    assert len(pinhole_ref.shape) == 2, pinhole_ref.shape
    return pinhole_i, pinhole_ref


def transform(fixed_image, coordinate_grid=None):
    shape = fixed_image.shape[2:]
    if coordinate_grid is not None:
        if shape != coordinate_grid.shape[2:]:
            raise ValueError("grid and image differ")
    return fixed_image


def apply_transform(dvf, coordinate_grid=None):
    if coordinate_grid is not None:
        assert shape == coordinate_grid.shape[2:]
    return dvf
