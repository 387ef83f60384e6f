"""Helpers with no mmengine import: the project's convention still holds."""


def rescale_polygon(polygon: list, scale: float) -> list:
    assert len(polygon) % 2 == 0, "polygon must have an even number of coordinates"
    return [value * scale for value in polygon]
