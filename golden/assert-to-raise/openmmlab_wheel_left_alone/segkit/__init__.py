"""segkit: segmentation on mmengine."""
__version__ = "1.0.0"
