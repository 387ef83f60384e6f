"""Drawing, with mmcv's image helpers where they are installed."""
import mmcv


def draw_boxes(image, boxes: list, thickness: int = 1):
    if thickness <= 0:
        raise ValueError("thickness must be positive")
    return mmcv.imshow_bboxes(image, boxes, thickness=thickness, show=False)
