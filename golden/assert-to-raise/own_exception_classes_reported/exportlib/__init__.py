from .ops import export_op
