import pytest

from detkit.necks import YOLOV3Neck


def test_yolov3_neck():
    with pytest.raises(AssertionError):
        YOLOV3Neck(num_scales=3, in_channels=[16, 8])
