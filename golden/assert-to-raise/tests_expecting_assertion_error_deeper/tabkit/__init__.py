from tabkit.config import export_config
from tabkit.model import TabularModel

__all__ = ["TabularModel", "export_config"]
