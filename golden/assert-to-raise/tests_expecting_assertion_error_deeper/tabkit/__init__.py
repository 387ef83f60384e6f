from tabkit.model import TabularModel

__all__ = ["TabularModel"]
